// Writes the hook's two bundles, each one ES module, which Node loads several times faster than the hundreds
// of modules they are made of:
// - dist/cli/hook-start.bundle.js: the hook's start (dist/cli/hook-start.js and everything it imports
//   statically). The slow path's dynamic import (./hook.js) stays a separate import.
// - dist/cli/hook.bundle.js: that slow path (dist/cli/hook.js: the YAML loader and the compiler, with the
//   `yaml` package), taken when the controller cache cannot be used. Every other package stays an import: ajv
//   must, since toolgate swaps ajv's equality helper in ajv's own module object (json-equal.ts), which a
//   bundled copy of ajv would not read.
// Without rolldown (a development dependency) nothing is written, and the hook imports dist/cli/hook-start.js
// and dist/cli/hook.js as they are.
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dist = (path) => fileURLToPath(new URL(`../dist/${path}`, import.meta.url));
const start = { input: dist("cli/hook-start.js"), output: dist("cli/hook-start.bundle.js") };
const slow = { input: dist("cli/hook.js"), output: dist("cli/hook.bundle.js") };
rmSync(start.output, { force: true });
rmSync(slow.output, { force: true });
let rolldown;
try {
  rolldown = await import("rolldown");
} catch {
  console.log("bundle-hook: rolldown is not installed; toolgate hook starts from dist/cli/hook-start.js");
  process.exit(0);
}
await rolldown.build({
  input: start.input,
  platform: "node",
  logLevel: "warn",
  // Anything not in dist/ (node's built-ins) and the slow path stay imports.
  external: (id, importer) =>
    id.startsWith("node:") || (importer !== undefined && (id === "./hook.js" || id === "./hook.bundle.js")),
  output: { file: start.output, format: "esm" },
});
await rolldown.build({
  input: slow.input,
  platform: "node",
  logLevel: "warn",
  // Every package but yaml (which imports none) stays an import, resolved from dist/ as before.
  external: (id) =>
    id.startsWith("node:") ||
    (!id.startsWith(".") && !id.startsWith("/") && id !== "yaml" && !id.startsWith("yaml/")),
  // One file: the compiler's dynamic imports are part of it, evaluated only when they run.
  output: { file: slow.output, format: "esm", codeSplitting: false },
});
