import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { compileController, declarationPathFor } from "../compile/compile-controller.js";
import { displayPath, outputPath } from "./codegen.js";
import { EXIT, print, UsageError } from "./common.js";
import { loadBundleOrReport } from "./load-bundle.js";

/** Options of `toolgate compile`. */
export interface CompileCommandOptions {
  readonly config?: string;
  readonly out?: string;
  readonly color?: boolean;
}

/**
 * `toolgate compile`: writes the standalone controller module (precompiled validators, frozen policy,
 * `createController`) and its declarations next to it.
 */
export async function runCompile(options: CompileCommandOptions): Promise<number> {
  const loaded = loadBundleOrReport(options.config, options.color);
  if ("exit" in loaded) return loaded.exit;
  const { bundle } = loaded;
  const out = outputPath(bundle, options.out, bundle.settings.compileOut, "compile");
  if (!out.endsWith(".mjs") && !out.endsWith(".js")) {
    throw new UsageError(
      `the compiled controller is an ES module: give a path ending in .mjs or .js, not ${displayPath(out)}`,
    );
  }
  const compiled = await compileController(bundle);
  const declarations = declarationPathFor(out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, compiled.module);
  writeFileSync(declarations, compiled.declarations);
  print(
    `toolgate: wrote ${displayPath(out)} and ${displayPath(declarations)} (${bundle.tools.length} tools; ${bundle.fingerprint})`,
  );
  return EXIT.ok;
}
