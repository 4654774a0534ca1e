import { existsSync, readFileSync, statSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { DIAGNOSTICS } from "../config/diagnostic-codes.js";
import { listedPropertyFiles } from "../config/property-files.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { DiagnosticMeta } from "../diagnostics/diagnostic-table.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import { formatSarif } from "../diagnostics/format-sarif.js";
import { countOf } from "../runtime/plural.js";
import {
  checkPropertiesAgainstBundle,
  checkPropertyIds,
  PROPERTY_DIAGNOSTICS,
  verifyHelpUri,
} from "../verify/property-diagnostics.js";
import { type PropertyFileResult, type PropertyProblem, readPropertyFile } from "../verify/property-file.js";
import { type Property, type PropertyResult, Verifier } from "../verify/verify-properties.js";
import {
  EXIT,
  parseFormat,
  print,
  printError,
  readSourceFile,
  toolVersion,
  UsageError,
  useColor,
} from "./common.js";
import { loadBundleOrReport } from "./load-bundle.js";

/** Options of `toolgate verify`. */
export interface VerifyCommandOptions {
  readonly config?: string;
  readonly format: string;
  readonly strict?: boolean;
  readonly color?: boolean;
}

export const VERIFY_FORMATS = ["stylish", "json", "sarif", "github"] as const;

/**
 * The SARIF rules of verify's results and of the problems of property files (its own table: they are not
 * diagnostics of the configuration). Each `property-…` code has its section in docs/verify.md.
 */
export const VERIFY_RULES: readonly DiagnosticMeta[] = [
  {
    code: "property-fails",
    severity: "error",
    description: "A property of the policy does not hold.",
    meaning: "Some valid call of the tool gets a decision the property rules out; the message shows one.",
    fix: "Change the policy so that the call is decided as the property says, or correct the property.",
  },
  {
    code: "property-unknown",
    severity: "warning",
    description: "A property of the policy could not be decided.",
    meaning:
      "The verifier could neither prove the property nor find a call that breaks it; the message says why.",
    fix: "Narrow the property's where, or cover the case with a policy test.",
  },
  // The problems of property files (exit 2): verify's own codes, and the YAML parser's.
  ...PROPERTY_DIAGNOSTICS,
  ...DIAGNOSTICS.filter((d) =>
    ["yaml-syntax", "duplicate-key", "yaml-alias", "file-too-large", "invalid-encoding"].includes(d.code),
  ),
];

function display(file: string): string {
  const rel = relative(process.cwd(), resolve(file));
  return (rel === "" ? "." : rel).split(sep).join("/");
}

function where(source: Property["source"]): string {
  return source === undefined ? "" : `${source.file}:${source.line}:${source.column ?? 1}`;
}

/** The witness of a failed property, in one line. */
function witnessLine(result: PropertyResult): string {
  const w = result.witness;
  if (w === undefined) return "";
  const context = Object.keys(w.context).length === 0 ? "" : ` context ${JSON.stringify(w.context)}`;
  return `${w.tool} ${JSON.stringify(w.arguments)}${context} is decided ${w.decision}`;
}

/** Prints the problems of property files in the chosen format, as lint prints the configuration's. */
function printProblems(
  problems: readonly PropertyProblem[],
  format: (typeof VERIFY_FORMATS)[number],
  color: boolean | undefined,
  fingerprint: string | null,
): void {
  print(
    formatDiagnostics(format, {
      diagnostics: problems,
      fingerprint,
      color: useColor(color),
      toolVersion: toolVersion(),
      table: VERIFY_RULES,
      helpUri: verifyHelpUri,
      readSource: readSourceFile,
    }),
  );
}

/**
 * The property files listed under `properties:` in the configuration (paths or globs relative to the config
 * file), as paths relative to the working directory. The configuration is loaded (and checked) once, so its
 * schema has already accepted the list; only the list is read here.
 */
function configPropertyFiles(config: string | undefined, format: (typeof VERIFY_FORMATS)[number]): string[] {
  const loaded = loadBundleOrReport(config, false, undefined, undefined, format);
  if ("exit" in loaded)
    throw new UsageError("the configuration does not load; fix it (toolgate lint) or pass property files");
  const configFile = resolve(loaded.bundle.configFile);
  const listed = listedPropertyFiles(configFile);
  if (!listed.ok) throw new UsageError(`${display(configFile)}: ${listed.message}`);
  if (listed.files.length === 0) {
    throw new UsageError(
      `pass the property files to verify, or list them under properties: in ${display(configFile)}`,
    );
  }
  return listed.files.map(display);
}

/**
 * `toolgate verify FILES…`: proves the properties of the given property files against the configuration's
 * policy. Exit 0 when every property holds (or is unknown, unless `--strict`), 1 when one fails (or, with
 * `--strict`, is unknown), 2 when the files or the configuration cannot be read.
 */
export async function runVerify(given: readonly string[], options: VerifyCommandOptions): Promise<number> {
  let files = given;
  const format = parseFormat(options.format, VERIFY_FORMATS);
  if (files.length === 0) files = configPropertyFiles(options.config, format);
  const read: PropertyFileResult[] = [];
  for (const file of files) {
    const absolute = resolve(file);
    if (!existsSync(absolute)) throw new UsageError(`${file} does not exist`);
    if (!statSync(absolute).isFile()) throw new UsageError(`${file} is not a file; pass property files`);
    read.push(readPropertyFile(readFileSync(absolute), display(file)));
  }
  const problems: PropertyProblem[] = [...read.flatMap((r) => r.problems), ...checkPropertyIds(read)];
  const loaded = loadBundleOrReport(
    options.config,
    options.color,
    "before verifying properties",
    undefined,
    format,
  );
  // A configuration that does not load cannot be verified: a usage error here, not a finding. The files'
  // own problems are reported all the same.
  if ("exit" in loaded) {
    // Stylish output lists the files' problems after the configuration's; the other formats print one document.
    if (problems.length > 0 && format === "stylish") printProblems(problems, format, options.color, null);
    else if (problems.length > 0)
      printError(
        `the property files have ${problems.length} problem(s) too; they are reported once the configuration loads`,
      );
    return EXIT.usage;
  }
  // Every file's problems are reported together, those that need the configuration too; nothing is verified.
  problems.push(...checkPropertiesAgainstBundle(read, loaded.bundle));
  if (problems.length > 0) {
    printProblems(problems, format, options.color, loaded.bundle.fingerprint);
    return EXIT.usage;
  }
  const properties: Property[] = read.flatMap((r) => r.properties);
  const started = performance.now();
  const results = new Verifier(loaded.bundle, loaded.validators).verify(properties);
  const elapsed = Math.round(performance.now() - started);
  const failed = results.filter((r) => r.status === "fails").length;
  const unknown = results.filter((r) => r.status === "unknown").length;
  const held = results.length - failed - unknown;
  if (format === "json") {
    print(
      JSON.stringify(
        {
          fingerprint: loaded.bundle.fingerprint,
          holds: held,
          fails: failed,
          unknown,
          results: results.map((r) => ({
            id: r.id,
            status: r.status,
            ...(r.source === undefined
              ? {}
              : { file: r.source.file, line: r.source.line, column: r.source.column }),
            ...(r.witness === undefined ? {} : { witness: r.witness }),
            ...(r.reason === undefined ? {} : { reason: r.reason }),
          })),
        },
        null,
        2,
      ),
    );
  } else if (format === "sarif") {
    const diagnostics: Diagnostic[] = results
      .filter((r) => r.status !== "holds")
      .map((r) => ({
        code: r.status === "fails" ? "property-fails" : "property-unknown",
        severity: r.status === "fails" || options.strict === true ? "error" : "warning",
        message: `property ${r.id} ${r.status === "fails" ? `fails: ${witnessLine(r)}` : `is unknown: ${r.reason ?? ""}`}`,
        file: r.source?.file ?? "",
        line: r.source?.line ?? 1,
        column: r.source?.column ?? 1,
      }));
    print(
      formatSarif(diagnostics, { toolVersion: toolVersion(), table: VERIFY_RULES, helpUri: verifyHelpUri }),
    );
  } else if (format === "github") {
    for (const r of results) {
      if (r.status === "holds") continue;
      const level = r.status === "fails" || options.strict === true ? "error" : "warning";
      const at =
        r.source === undefined
          ? ""
          : ` file=${r.source.file},line=${r.source.line},col=${r.source.column ?? 1}`;
      const message = r.status === "fails" ? `fails: ${witnessLine(r)}` : `unknown: ${r.reason ?? ""}`;
      print(`::${level}${at}::property ${r.id} ${message.replaceAll("%", "%25").replaceAll("\n", "%0A")}`);
    }
  } else {
    const color = useColor(options.color);
    const paint = (code: number, s: string) => (color ? `\u001b[${code}m${s}\u001b[39m` : s);
    for (const r of results) {
      const at = where(r.source);
      if (r.status === "holds") print(`${paint(32, "holds  ")} ${r.id}${at === "" ? "" : `  ${at}`}`);
      else if (r.status === "fails") {
        print(`${paint(31, "fails  ")} ${r.id}${at === "" ? "" : `  ${at}`}\n         ${witnessLine(r)}`);
      } else
        print(`${paint(33, "unknown")} ${r.id}${at === "" ? "" : `  ${at}`}\n         ${r.reason ?? ""}`);
    }
    print(
      `${countOf(results.length, "property", "properties")}: ${held} hold, ${failed} fail, ${unknown} unknown (${elapsed} ms; ${loaded.bundle.fingerprint})`,
    );
  }
  if (failed > 0) return EXIT.findings;
  if (unknown > 0 && options.strict === true) return EXIT.findings;
  return EXIT.ok;
}
