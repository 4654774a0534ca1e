import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, resolve } from "node:path";
import { formatYamlText } from "../config/format-yaml.js";
import { loadPolicyResultSync } from "../config/load-policy.js";
import { listedPropertyFiles } from "../config/property-files.js";
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

/**
 * Every YAML file the configuration reads: the config itself, tool, policy (with its layers) and test files, and
 * the property files it lists for `toolgate verify` (when the configuration loads).
 */
function configuredFiles(config: string | undefined): string[] {
  const loaded = loadPolicyResultSync(config === undefined ? {} : { config });
  if (!loaded.configFound) {
    throw new UsageError(loaded.diagnostics[0]?.message ?? "no toolgate configuration found");
  }
  const files = [...loaded.files.keys()];
  if (loaded.bundle !== undefined) {
    const listed = listedPropertyFiles(resolve(loaded.bundle.configFile));
    if (listed.ok) for (const file of listed.files) if (!files.includes(file)) files.push(file);
  }
  return files.filter(
    (file) => /\.ya?ml$/.test(extname(file)) && existsSync(file) && statSync(file).isFile(),
  );
}

/**
 * What fmt may change of the configuration's policy: its fingerprint (only `--sort` can), and where each
 * statement is (any layout change can move lines), which the compiled controller records. Undefined when the
 * policy does not load.
 */
function policyNow(
  config: string | undefined,
): { readonly fingerprint: string; readonly places: string; readonly compiled: boolean } | undefined {
  const bundle = loadPolicyResultSync(config === undefined ? {} : { config }).bundle;
  if (bundle === undefined) return undefined;
  const places = JSON.stringify(
    bundle.statements.map((s) => [s.id, s.source?.file, s.source?.line, s.source?.column]),
  );
  return { fingerprint: bundle.fingerprint, places, compiled: bundle.settings.compileOut !== undefined };
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
  const before = !check && files.length === 0 ? policyNow(options.config) : undefined;
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
    const after = before === undefined || changed === 0 ? undefined : policyNow(options.config);
    if (before !== undefined && after !== undefined) {
      if (after.fingerprint !== before.fingerprint) {
        print(
          `toolgate: ${sort ? "--sort changed the order of statements, so " : ""}the policy fingerprint changed (${before.fingerprint} → ${after.fingerprint}); run \`toolgate codegen\` and \`toolgate compile\` again`,
        );
      } else if (after.places !== before.places && after.compiled) {
        print(
          "toolgate: the policy is the same (same fingerprint), but statements are on other lines now; run `toolgate compile` again (the compiled controller records where each one is)",
        );
      }
    }
  }
  return failed > 0 || (check && changed > 0) ? EXIT.findings : EXIT.ok;
}
