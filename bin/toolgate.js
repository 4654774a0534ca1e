#!/usr/bin/env node
import { main } from "../dist/cli/main.js";

// A reader that stops early (`toolgate explain … | head`) closes the pipe: stop quietly, as other command-line
// tools do, instead of dying with a stack trace. Any other output error is reported in one line.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    if (stream !== process.stderr) process.stderr.write(`toolgate: cannot write output: ${error.message}\n`);
    process.exit(2);
  });
}

process.exitCode = await main(process.argv.slice(2));
