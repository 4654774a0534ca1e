// Writes dist/cli/hook-start.bundle.js: the hook's start (dist/cli/hook-start.js and everything it imports
// statically) as one ES module, which Node loads several times faster than the hundred modules it is made of.
// The slow path's dynamic import (./hook.js: the YAML loader and the compiler) stays a separate import.
// Without rolldown (a development dependency) nothing is written, and bin/toolgate.js uses
// dist/cli/hook-start.js as it is.
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const input = fileURLToPath(new URL("../dist/cli/hook-start.js", import.meta.url));
const output = fileURLToPath(new URL("../dist/cli/hook-start.bundle.js", import.meta.url));
rmSync(output, { force: true });
let rolldown;
try {
  rolldown = await import("rolldown");
} catch {
  console.log("bundle-hook: rolldown is not installed; toolgate hook starts from dist/cli/hook-start.js");
  process.exit(0);
}
await rolldown.build({
  input,
  platform: "node",
  logLevel: "warn",
  // Anything not in dist/ (node's built-ins) and the slow path stay imports.
  external: (id, importer) => id.startsWith("node:") || (importer !== undefined && id === "./hook.js"),
  output: { file: output, format: "esm" },
});
