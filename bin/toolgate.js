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
  const { main } = await import("../dist/cli/main.js");
  code = await main(argv);
}
process.exitCode = code;
