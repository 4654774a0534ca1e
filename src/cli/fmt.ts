import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, resolve } from "node:path";
import { formatYamlText } from "../config/format-yaml.js";
import { loadPolicyResultSync } from "../config/load-policy.js";
import { displayPath } from "./codegen.js";
import { EXIT, print, printError, UsageError } from "./common.js";
import { unifiedDiff } from "./text-diff.js";

/** Options of `toolgate fmt`. */
export interface FmtCommandOptions {
  readonly config?: string;
  readonly check?: boolean;
}

/** The policy, tool and test files of the configuration: every YAML file the loader read except the config. */
function configuredFiles(config: string | undefined): string[] {
  const loaded = loadPolicyResultSync(config === undefined ? {} : { config });
  if (!loaded.configFound) {
    throw new UsageError(loaded.diagnostics[0]?.message ?? "no toolgate configuration found");
  }
  return [...loaded.files.keys()].filter(
    (file) => /\.ya?ml$/.test(extname(file)) && existsSync(file) && statSync(file).isFile(),
  );
}

/**
 * `toolgate fmt [FILES…]`: writes policy, tool and test files in the canonical layout (comments kept); with
 * `--check`, changes nothing, prints a unified diff of each file that is not formatted and exits 1.
 */
export function runFmt(files: readonly string[], options: FmtCommandOptions): number {
  const targets = files.length > 0 ? files.map((f) => resolve(f)) : configuredFiles(options.config).sort();
  let changed = 0;
  let failed = 0;
  let formatted = 0;
  for (const file of targets) {
    const shown = displayPath(file);
    if (!existsSync(file)) throw new UsageError(`${shown} does not exist`);
    const text = readFileSync(file, "utf8");
    const result = formatYamlText(text);
    if (!result.ok) {
      printError(`${shown}:${result.line}:${result.column}: ${result.message}`);
      failed++;
      continue;
    }
    if (result.kind === "other") {
      // The configuration file, or a YAML file that is none of policy, tools or tests: left as it is.
      if (files.length > 0) printError(`${shown} is not a policy, tool or test file; left as it is`);
      continue;
    }
    formatted++;
    if (result.text === text) continue;
    changed++;
    if (options.check === true) print(unifiedDiff(shown, text, result.text));
    else writeFileSync(file, result.text);
  }
  if (options.check === true) {
    if (changed > 0) printError(`${changed} of ${formatted} file(s) are not formatted; run \`toolgate fmt\``);
    else if (failed === 0) print(`toolgate: ${formatted} file(s) formatted`);
  } else {
    print(`toolgate: ${changed} of ${formatted} file(s) rewritten`);
  }
  return failed > 0 || (options.check === true && changed > 0) ? EXIT.findings : EXIT.ok;
}
