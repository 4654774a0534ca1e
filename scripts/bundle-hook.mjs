// Writes the hook's two bundles, each one ES module, which Node loads several times faster than the hundreds
// of modules they are made of:
// - dist/cli/hook-start.bundle.js: the hook's start (dist/cli/hook-start.js and everything it imports
//   statically). The slow path's dynamic import (./hook.js) stays a separate import.
// - dist/cli/hook.bundle.js: that slow path (dist/cli/hook.js: the YAML loader and the compiler, with the
//   `yaml` and `ajv` packages; ajv is a hundred small CommonJS modules), taken when the controller cache cannot
//   be used. ajv's runtime helpers (ajv/dist/runtime/*) stay imports of ajv's own modules (see the plugin).
//   Every other package stays an import.
// - dist/cli/main.bundle.js: the whole command line (dist/cli/main.js, its commands' dynamic imports inside,
//   yaml and ajv as in the slow path), which bin/toolgate.js starts for `verify` and `diff`: they load two
//   policies or properties and run the engine in one short process, where loading some three hundred modules
//   was a tenth of the time.
// Without rolldown (a development dependency) nothing is written, and the hook imports dist/cli/hook-start.js
// and dist/cli/hook.js as they are (the command line dist/cli/main.js).
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const dist = (path) => fileURLToPath(new URL(`../dist/${path}`, import.meta.url));
const start = { input: dist("cli/hook-start.js"), output: dist("cli/hook-start.bundle.js") };
const slow = { input: dist("cli/hook.js"), output: dist("cli/hook.bundle.js") };
const cli = { input: dist("cli/main.js"), output: dist("cli/main.bundle.js") };
for (const { output } of [start, slow, cli]) rmSync(output, { force: true });
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
/** Packages bundled into the slow path: yaml, and ajv with the packages it requires. */
const ajvPackage = createRequire(import.meta.url)("ajv/package.json");
const BUNDLED = new Set(["yaml", "ajv", ...Object.keys(ajvPackage.dependencies ?? {})]);
const packageOf = (id) =>
  (id.startsWith("@") ? id.split("/").slice(0, 2) : id.split("/").slice(0, 1)).join("/");
/** Bundles `input` with yaml and ajv into one module at `output`. */
const withYamlAndAjv = (input, output) =>
  rolldown.build({
    input,
    platform: "node",
    logLevel: "warn",
    plugins: [
      {
        // ajv's runtime helpers stay imports of ajv's own modules, also from the bundled ajv: toolgate swaps
        // the equality helper in that module's exports (json-equal.ts) and knows the helpers of the code ajv
        // generates by identity (ajv-standalone.ts); a bundled copy would be another object.
        name: "ajv-runtime-stays-ajv",
        resolveId(source, importer) {
          if (/^ajv\/dist\/runtime\//.test(source))
            return { id: source.replace(/\.js$/, ""), external: true };
          if (importer === undefined || !source.startsWith(".")) return null;
          const path = resolve(dirname(importer), source);
          const runtime = /[\\/]node_modules[\\/]ajv[\\/]dist[\\/]runtime[\\/]([^\\/]+?)(\.js)?$/.exec(path);
          return runtime === null ? null : { id: `ajv/dist/runtime/${runtime[1]}`, external: true };
        },
      },
    ],
    // Every other package stays an import, resolved from dist/ as before; rolldown's own helpers (a tagged
    // template with `</script>` in it is rewritten with one) are written into the bundle.
    external: (id) =>
      id.startsWith("node:") ||
      (!id.startsWith(".") &&
        !id.startsWith("/") &&
        !id.startsWith("@oxc-project/runtime") &&
        !BUNDLED.has(packageOf(id))),
    // One file: the dynamic imports are part of it, evaluated only when they run.
    output: { file: output, format: "esm", codeSplitting: false },
  });
await withYamlAndAjv(slow.input, slow.output);
await withYamlAndAjv(cli.input, cli.output);
