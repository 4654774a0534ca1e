import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, resolve } from "node:path";
import { formatYamlText } from "../config/format-yaml.js";
import { loadPolicyResultSync } from "../config/load-policy.js";
import { countOf } from "../runtime/plural.js";
import { displayPath } from "./codegen.js";
import { EXIT, print, printError, UsageError } from "./common.js";
import { unifiedDiff } from "./text-diff.js";

/** Options of `toolgate fmt`. */
export interface FmtCommandOptions {
  readonly config?: string;
  readonly check?: boolean;
  readonly sort?: boolean;
}

/** Every YAML file the configuration reads: the config itself, tool, policy (with its layers) and test files. */
function configuredFiles(config: string | undefined): string[] {
  const loaded = loadPolicyResultSync(config === undefined ? {} : { config });
  if (!loaded.configFound) {
    throw new UsageError(loaded.diagnostics[0]?.message ?? "no toolgate configuration found");
  }
  return [...loaded.files.keys()].filter(
    (file) => /\.ya?ml$/.test(extname(file)) && existsSync(file) && statSync(file).isFile(),
  );
}

/** The fingerprint of the configuration's policy now, or undefined when it does not load. */
function fingerprintNow(config: string | undefined): string | undefined {
  return loadPolicyResultSync(config === undefined ? {} : { config }).bundle?.fingerprint;
}

/**
 * `toolgate fmt [FILES…]`: writes each file in the layout prettier gives YAML, changing layout only (the data
 * and so the policy fingerprint stay exactly as they were). With `--check`, changes nothing, prints a unified
 * diff of each file that is not formatted and exits 1. With `--sort`, also reorders what carries no meaning
 * (sets of tool names, reasons, keys) and says so when that changes the policy fingerprint.
 */
export async function runFmt(files: readonly string[], options: FmtCommandOptions): Promise<number> {
  const targets = files.length > 0 ? files.map((f) => resolve(f)) : configuredFiles(options.config).sort();
  const sort = options.sort === true;
  const check = options.check === true;
  const fingerprintBefore = sort && !check && files.length === 0 ? fingerprintNow(options.config) : undefined;
  let changed = 0;
  let failed = 0;
  let reordered = 0;
  for (const file of targets) {
    const shown = displayPath(file);
    if (!existsSync(file)) throw new UsageError(`${shown} does not exist`);
    const text = readFileSync(file, "utf8");
    const result = await formatYamlText(text, { filepath: file, file: shown, sort });
    if (!result.ok) {
      const d = result.diagnostic;
      printError(`${d.file}:${d.line}:${d.column}: ${d.message} (${d.code}); fix it first`);
      failed++;
      continue;
    }
    if (result.reordered) reordered++;
    if (result.text === text) continue;
    changed++;
    if (check) print(unifiedDiff(shown, text, result.text));
    else writeFileSync(file, result.text);
  }
  const total = countOf(targets.length - failed, "file");
  if (check) {
    const are = changed === 1 ? "is" : "are";
    if (changed > 0)
      printError(`${changed} of ${total} ${are} not formatted; run \`toolgate fmt${sort ? " --sort" : ""}\``);
    else if (failed === 0) print(`toolgate: ${total} ${targets.length === 1 ? "is" : "are"} formatted`);
  } else if (failed < targets.length) {
    print(
      `toolgate: ${changed} of ${total} rewritten${sort ? ` (${countOf(reordered, "file")} reordered)` : ""}`,
    );
    if (fingerprintBefore !== undefined) {
      const after = fingerprintNow(options.config);
      if (after !== undefined && after !== fingerprintBefore) {
        print(
          `toolgate: --sort changed the order of statements, so the policy fingerprint changed (${fingerprintBefore} → ${after}); run \`toolgate codegen\` and \`toolgate compile\` again`,
        );
      }
    }
  }
  return failed > 0 || (check && changed > 0) ? EXIT.findings : EXIT.ok;
}
