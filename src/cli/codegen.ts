import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import type { PolicyBundle } from "../bundle/policy-bundle.js";
import { checkGenerated } from "../codegen/check-generated.js";
import { generateTypes } from "../codegen/generate-types.js";
import { DIAGNOSTICS } from "../config/diagnostic-codes.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import { countOf } from "../runtime/plural.js";
import { EXIT, print, readSourceFile, toolVersion, UsageError, useColor } from "./common.js";
import { loadBundleOrReport } from "./load-bundle.js";

/** Options of `toolgate codegen`. */
export interface CodegenCommandOptions {
  readonly config?: string;
  readonly out?: string;
  readonly check?: boolean;
  readonly color?: boolean;
}

/** A path relative to the working directory, with `/` separators (what diagnostics and messages show). */
export function displayPath(absolute: string): string {
  const rel = relative(process.cwd(), absolute);
  return (rel === "" ? "." : rel).split(sep).join("/");
}

/**
 * The output file: `--out` relative to the working directory, else the config's setting relative to the
 * config file; `undefined` when neither is given.
 */
export function configuredOutput(
  bundle: PolicyBundle,
  out: string | undefined,
  configured: string | undefined,
): string | undefined {
  if (out !== undefined) return resolve(out);
  if (configured !== undefined) return resolve(bundle.configDir, configured);
  return undefined;
}

/**
 * The output file to write (see `configuredOutput`).
 * @throws UsageError when neither `--out` nor the config names one.
 */
export function outputPath(
  bundle: PolicyBundle,
  out: string | undefined,
  configured: string | undefined,
  key: "codegen" | "compile",
): string {
  const path = configuredOutput(bundle, out, configured);
  if (path !== undefined) return path;
  throw new UsageError(
    `no output file: pass --out PATH or set ${key}: { out: PATH } in ${bundle.configFile}`,
  );
}

/**
 * What `--check` says when there is no file to compare (the configuration names none): the output was built in
 * memory, so the policy does generate; nothing on disk can be stale.
 */
export function nothingToCompare(bundle: PolicyBundle, key: "codegen" | "compile"): string {
  return `toolgate: ${key} works for this policy (${countOf(bundle.tools.length, "tool")}; ${bundle.fingerprint}); the configuration names no ${key}.out, so there is no file to compare`;
}

export function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * `toolgate codegen`: writes the TypeScript argument interfaces and handler types of the policy, or with
 * `--check` verifies that the file on disk is exactly what would be written (exit 1 with `codegen-stale`).
 */
export async function runCodegen(options: CodegenCommandOptions): Promise<number> {
  const loaded = loadBundleOrReport(options.config, options.color);
  if ("exit" in loaded) return loaded.exit;
  const { bundle } = loaded;
  const configured = configuredOutput(bundle, options.out, bundle.settings.codegenOut);
  if (options.check === true && configured === undefined) {
    await generateTypes(bundle);
    print(nothingToCompare(bundle, "codegen"));
    return EXIT.ok;
  }
  const out = outputPath(bundle, options.out, bundle.settings.codegenOut, "codegen");
  const text = await generateTypes(bundle);
  const file = displayPath(out);
  if (options.check === true) {
    const checked = checkGenerated([{ file, actual: readIfExists(out), expected: text }], "codegen");
    if (checked.ok) {
      print(
        `toolgate: ${file} is up to date (${countOf(bundle.tools.length, "tool")}; ${bundle.fingerprint})`,
      );
      return EXIT.ok;
    }
    print(
      formatDiagnostics("stylish", {
        diagnostics: checked.diagnostics,
        fingerprint: bundle.fingerprint,
        color: useColor(options.color),
        toolVersion: toolVersion(),
        table: DIAGNOSTICS,
        readSource: readSourceFile,
      }),
    );
    return EXIT.findings;
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  print(`toolgate: wrote ${file} (${countOf(bundle.tools.length, "tool")}; ${bundle.fingerprint})`);
  return EXIT.ok;
}
