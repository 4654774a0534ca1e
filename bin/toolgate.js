#!/usr/bin/env node
// A reader that stops early (`toolgate explain … | head`) closes the pipe: stop quietly, as other command-line
// tools do, instead of dying with a stack trace. Any other output error is reported in one line.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    if (stream !== process.stderr) process.stderr.write(`toolgate: cannot write output: ${error.message}\n`);
    process.exit(2);
  });
}

const argv = process.argv.slice(2);
// `toolgate hook <host>` runs for every tool call an agent makes: it starts with the hook's entry alone (no
// argument parser, YAML parser or schema compiler; one bundled module when the build wrote it), which hands
// anything it does not read back to the full command line.
let code;
if (argv[0] === "hook") {
  let start;
  try {
    start = await import("../dist/cli/hook-start.bundle.js");
  } catch {
    start = await import("../dist/cli/hook-start.js");
  }
  code = await start.runHook(argv.slice(1));
}
if (code === undefined) {
  // `verify` and `diff` are one short process each that loads policies and runs the engine: they start from the
  // command line bundled into one module when the build wrote it (scripts/bundle-hook.mjs), which Node loads
  // faster than the hundreds of modules it is made of.
  let entry;
  if (argv[0] === "verify" || argv[0] === "diff") {
    try {
      entry = await import("../dist/cli/main.bundle.js");
    } catch {
      // Not built (no rolldown): the modules below.
    }
  }
  entry ??= await import("../dist/cli/main.js");
  code = await entry.main(argv);
}
process.exitCode = code;
