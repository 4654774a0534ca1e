import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, posix, sep } from "node:path";
import type { PolicyBundle } from "../bundle/policy-bundle.js";
import { checkGenerated } from "../codegen/check-generated.js";
import { describeChange } from "../codegen/describe-change.js";
import { compileControllerWith, compileFactory, declarationPathFor } from "../compile/compile-controller.js";
import { DIAGNOSTICS } from "../config/diagnostic-codes.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import { countOf } from "../runtime/plural.js";
import type { SchemaDraft } from "../validation/argument-validator.js";
import { configuredOutput, displayPath, nothingToCompare, outputPath, readIfExists } from "./codegen.js";
import { EXIT, print, readSourceFile, toolVersion, UsageError, useColor } from "./common.js";
import { loadBundleOrReport } from "./load-bundle.js";

/** Options of `toolgate compile`. */
export interface CompileCommandOptions {
  readonly config?: string;
  readonly out?: string;
  readonly check?: boolean;
  readonly color?: boolean;
}

const FINGERPRINT = /^export (?:declare )?const fingerprint(?:: | = )"(sha256:[0-9a-f]{64})";$/m;

/**
 * A compiled module's text without what a change of layout alone changes: the statements' source lines and
 * columns (inside the policy data's JSON text) and the integrity hash of that data.
 */
function withoutPositions(text: string): string {
  return text
    .replace(/\\"(line|column)\\":\d+/g, '\\"$1\\":0')
    .replace(/integrity: \{ data: "sha256:[0-9a-f]{64}"/g, 'integrity: { data: ""');
}

/**
 * Why a compiled file differs, when its fingerprint says more than its declarations: the policy it was compiled
 * from; or, with the same fingerprint, only where the statements are in the files (their source lines are in
 * the module, for explain and the audit log, but not in the fingerprint), as after a change of layout.
 */
function policyCause(actual: string | undefined, expected: string, fingerprint: string): string | undefined {
  const onDisk = actual === undefined ? null : FINGERPRINT.exec(actual);
  if (actual === undefined || onDisk === null || onDisk === undefined) return undefined;
  if (onDisk[1] !== fingerprint) {
    return `the policy changed: the file was compiled from ${onDisk[1]}, the policy is now ${fingerprint}`;
  }
  const change = describeChange(actual, expected);
  const moved =
    (change.added.length === 0 &&
      change.removed.length === 0 &&
      change.changed.length === 1 &&
      change.changed[0] === "statements") ||
    withoutPositions(actual) === withoutPositions(expected);
  return moved
    ? `the policy is the same (${fingerprint}), but its statements are on other lines of its files, as after a change of layout such as toolgate fmt; the module records where each one is`
    : undefined;
}

/**
 * The bundle to compile into a file: its statements' source files relative to the configuration's folder
 * instead of the working directory of the load (which is what diagnostics show). The module written is then
 * the same whichever folder `toolgate compile` runs from, so `compile --check` agrees with a `compile` run
 * elsewhere (a package's build script, the repository root). The source is not part of the fingerprint.
 */
export function portableBundle(bundle: PolicyBundle): PolicyBundle {
  const configFolder = posix.dirname(bundle.configFile.split(sep).join("/"));
  const statements = bundle.statements.map((statement) =>
    statement.source === undefined
      ? statement
      : {
          ...statement,
          source: { ...statement.source, file: posix.relative(configFolder, statement.source.file) },
        },
  );
  return { ...bundle, statements };
}

/**
 * `toolgate compile`: writes the standalone controller module (precompiled validators, frozen policy,
 * `createController`) and its declarations next to it; with `--check`, verifies that both files on disk are
 * exactly what would be written (exit 1 with `codegen-stale`, saying whether the policy changed).
 */
export async function runCompile(options: CompileCommandOptions): Promise<number> {
  // The load compiles each schema as the module is written from it, and the module takes those validators.
  const factory = compileFactory();
  const loaded = loadBundleOrReport(options.config, options.color, undefined, factory);
  if ("exit" in loaded) return loaded.exit;
  const { bundle } = loaded;
  const moduleOptions = { ajvFor: (draft: SchemaDraft) => factory.ajvFor(draft) };
  if (
    options.check === true &&
    configuredOutput(bundle, options.out, bundle.settings.compileOut) === undefined
  ) {
    await compileControllerWith(portableBundle(bundle), moduleOptions);
    print(nothingToCompare(bundle, "compile"));
    return EXIT.ok;
  }
  const out = outputPath(bundle, options.out, bundle.settings.compileOut, "compile");
  if (!out.endsWith(".mjs") && !out.endsWith(".js")) {
    throw new UsageError(
      `the compiled controller is an ES module: give a path ending in .mjs or .js, not ${displayPath(out)}`,
    );
  }
  const compiled = await compileControllerWith(portableBundle(bundle), moduleOptions);
  const declarations = declarationPathFor(out);
  if (options.check === true) {
    const files = [
      [out, compiled.module],
      [declarations, compiled.declarations],
    ] as const;
    const checked = checkGenerated(
      files.map(([path, expected]) => {
        const actual = readIfExists(path);
        const cause = policyCause(actual, expected, bundle.fingerprint);
        return { file: displayPath(path), actual, expected, ...(cause === undefined ? {} : { cause }) };
      }),
      "compile",
    );
    if (checked.ok) {
      print(
        `toolgate: ${displayPath(out)} and ${displayPath(declarations)} are up to date (${countOf(bundle.tools.length, "tool")}; ${bundle.fingerprint})`,
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
  writeFileSync(out, compiled.module);
  writeFileSync(declarations, compiled.declarations);
  print(
    `toolgate: wrote ${displayPath(out)} and ${displayPath(declarations)} (${countOf(bundle.tools.length, "tool")}; ${bundle.fingerprint})`,
  );
  return EXIT.ok;
}
