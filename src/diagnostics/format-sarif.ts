/** The `sarif` formatter: SARIF 2.1.0 for code-scanning services (GitHub code scanning and others). */

import { createHash } from "node:crypto";
import { type Diagnostic, type DiagnosticCode, type Severity, sortDiagnostics } from "./diagnostic.js";
import { helpUri, RULE_HELP } from "./rule-help.js";

/** One short sentence per diagnostic code: the SARIF rule's `shortDescription`. */
export const RULE_DESCRIPTIONS: Readonly<Record<DiagnosticCode, string>> = {
  "yaml-syntax": "The file is not well-formed YAML.",
  "duplicate-key": "A YAML mapping repeats a key.",
  "yaml-alias": "The file uses a YAML anchor or alias, which policy files do not allow.",
  "file-too-large": "The file is larger than the size limit for policy files.",
  "file-not-found": "A file named by the configuration or a policy does not exist.",
  "config-not-found": "No toolgate configuration file was found.",
  "invalid-encoding": "The file is not valid UTF-8 text.",
  "config-schema": "The document does not match the JSON Schema for its file kind.",
  "invalid-tool-name": "A tool name is not a valid tool name.",
  "duplicate-tool": "The same tool name is declared more than once.",
  "invalid-input-schema": "A tool's input_schema is not a valid JSON Schema for an object.",
  "unknown-tool": "The policy names a tool that no tool spec declares.",
  overlap: "A tool is listed in more than one of allow, ask and deny in one policy file.",
  "duplicate-rule-id": "Two rules have the same id.",
  "unknown-argument": "A rule condition names an argument that the tool's input_schema does not define.",
  "operator-type-mismatch": "A rule operator does not fit the type of the argument it is applied to.",
  "invalid-regex": "A regular expression is invalid or cannot be matched in linear time.",
  "invalid-glob": "A glob pattern is invalid.",
  "invalid-command": "A command prefix is not a plain list of shell words.",
  "unknown-rule": "A policy test names a rule id that the policy does not have.",
  "extends-cycle": "Policy files extend each other in a cycle.",
  "missing-handler": "A declared tool has no handler.",
  "unknown-handler": "A handler is registered for a tool that no tool spec declares.",
  "reload-refused":
    "A running controller cannot take a new configuration as it is; the old one stays in force.",
  "identifier-collision": "Two tool names give the same TypeScript identifier.",
  "unlisted-tool": "A declared tool has no policy statement, so it is always denied.",
  "unreachable-rule": "A rule can never decide a call because other statements always take precedence.",
  "test-failed": "A policy test did not get the expected decision.",
  "codegen-stale": "Generated code is out of date with the policy and tool specs.",
  "prefix-on-path":
    "A plain string prefix is applied to a path, where path_prefix (which normalises the path) was likely meant.",
  "invalid-url": "A url operator names a scheme, host, port or path pattern that no URL can have.",
  "unbounded-string":
    "A command, glob, path_prefix or regex rule reads a string field whose schema sets no maxLength.",
};

/** The severity each code is reported with unless a stage says otherwise: the rule's default level. */
export const DEFAULT_SEVERITIES: Readonly<Record<DiagnosticCode, Severity>> = {
  "yaml-syntax": "error",
  "duplicate-key": "error",
  "yaml-alias": "error",
  "file-too-large": "error",
  "file-not-found": "error",
  "config-not-found": "error",
  "invalid-encoding": "error",
  "config-schema": "error",
  "invalid-tool-name": "error",
  "duplicate-tool": "error",
  "invalid-input-schema": "error",
  "unknown-tool": "error",
  overlap: "error",
  "duplicate-rule-id": "error",
  "unknown-argument": "error",
  "operator-type-mismatch": "error",
  "invalid-regex": "error",
  "invalid-glob": "error",
  "invalid-command": "error",
  "unknown-rule": "error",
  "extends-cycle": "error",
  "missing-handler": "error",
  "unknown-handler": "error",
  "reload-refused": "error",
  "identifier-collision": "error",
  "unlisted-tool": "warning",
  "unreachable-rule": "warning",
  "test-failed": "error",
  "codegen-stale": "error",
  "prefix-on-path": "warning",
  "invalid-url": "error",
  "unbounded-string": "warning",
};

/** The `$schema` written into every SARIF log. */
export const SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json";

/** The `partialFingerprints` key; bump the version if the hashed fields ever change. */
export const SARIF_FINGERPRINT_KEY = "toolgateDiagnostic/v1";

/** The URI base id that relative file locations resolve against: the directory toolgate ran in. */
export const SARIF_SRCROOT = "%SRCROOT%";

/** Options for {@link formatSarif}. */
export interface SarifOptions {
  /** Written as `tool.driver.version`. */
  readonly toolVersion: string;
  /** Overrides for the built-in {@link RULE_DESCRIPTIONS}, by code. */
  readonly ruleDescriptions?: ReadonlyMap<string, string>;
}

/**
 * Formats diagnostics as a SARIF 2.1.0 log with one run whose driver is `toolgate`.
 *
 * `rules` holds the distinct codes used, in code order, each with its meaning (`fullDescription`), what to do
 * (`help`, text and Markdown) and its section of the reference (`helpUri`); each result points at its rule by `ruleId` and
 * `ruleIndex`. File paths become URI references relative to `%SRCROOT%` (forward slashes, percent-encoded);
 * an absolute path becomes a `file:` URI. `region` is written when the line is known (1 or more).
 * `partialFingerprints["toolgateDiagnostic/v1"]` is the SHA-256 of code, file, message and JSON Pointer path, so
 * it stays the same when only the position of a finding moves. Equal input gives byte-identical output.
 *
 * @param diagnostics - The diagnostics to report, in any order.
 * @param options - The tool version and optional rule description overrides.
 * @returns Pretty-printed JSON (2-space indent) ending in a newline.
 */
export function formatSarif(diagnostics: readonly Diagnostic[], options: SarifOptions): string {
  const sorted = sortDiagnostics(diagnostics);
  const codes = [...new Set(sorted.map((d) => d.code))].sort();
  const ruleIndex = new Map(codes.map((code, index) => [code, index]));

  const rules = codes.map((code) => ({
    id: code,
    shortDescription: { text: options.ruleDescriptions?.get(code) ?? RULE_DESCRIPTIONS[code] },
    fullDescription: { text: RULE_HELP[code].meaning },
    help: {
      text: `${RULE_HELP[code].meaning} What to do: ${RULE_HELP[code].fix} See ${helpUri(code)}`,
      markdown: `${RULE_HELP[code].meaning}\n\n**What to do:** ${RULE_HELP[code].fix}\n\n[Reference: \`${code}\`](${helpUri(code)})`,
    },
    helpUri: helpUri(code),
    defaultConfiguration: { level: DEFAULT_SEVERITIES[code] },
  }));

  const results = sorted.map((d) => ({
    ruleId: d.code,
    ruleIndex: ruleIndex.get(d.code) ?? 0,
    level: d.severity,
    message: { text: d.message },
    ...(d.file === "" ? {} : { locations: [{ physicalLocation: physicalLocation(d) }] }),
    partialFingerprints: { [SARIF_FINGERPRINT_KEY]: fingerprintDiagnostic(d) },
  }));

  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "toolgate", version: options.toolVersion, rules } },
        originalUriBaseIds: {
          [SARIF_SRCROOT]: {
            description: {
              text: "The working directory toolgate ran in; file locations are relative to it.",
            },
          },
        },
        columnKind: "utf16CodeUnits",
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function physicalLocation(d: Diagnostic) {
  const artifactLocation = pathToSarifUri(d.file);
  if (!(d.line >= 1)) return { artifactLocation };
  const region = {
    startLine: d.line,
    ...(d.column >= 1 ? { startColumn: d.column } : {}),
    ...(d.endLine !== undefined && d.endLine >= d.line ? { endLine: d.endLine } : {}),
    ...(d.endColumn !== undefined && d.endColumn >= 1 ? { endColumn: d.endColumn } : {}),
  };
  return { artifactLocation, region };
}

/**
 * The SARIF `artifactLocation` for a file path: a percent-encoded URI reference with forward slashes relative
 * to `%SRCROOT%`, or a `file:` URI (and no base id) for an absolute path.
 *
 * @param file - A path relative to the working directory (either slash), or an absolute path.
 * @returns `{ uri, uriBaseId }` for a relative path, `{ uri }` for an absolute one.
 */
export function pathToSarifUri(file: string): { uri: string; uriBaseId?: string } {
  const slashed = file.replace(/\\/g, "/");
  const drive = /^([A-Za-z]):\//.exec(slashed);
  if (drive) return { uri: `file:///${drive[1]}:/${encodePath(slashed.slice(3))}` };
  if (slashed.startsWith("/")) return { uri: `file://${encodePath(slashed)}` };
  return { uri: encodePath(slashed.replace(/^(\.\/)+/, "")), uriBaseId: SARIF_SRCROOT };
}

// RFC 3986 pchar without ":", so a first segment like "a:b" is never read as a scheme.
const SEGMENT_SAFE = /^[A-Za-z0-9\-._~!$&'()*+,;=@]$/;

function encodePath(path: string): string {
  return path
    .split("/")
    .map((segment) => {
      let out = "";
      for (const char of segment) out += SEGMENT_SAFE.test(char) ? char : encodeChar(char);
      return out;
    })
    .join("/");
}

function encodeChar(char: string): string {
  try {
    return encodeURIComponent(char);
  } catch {
    // A lone surrogate has no UTF-8 encoding; write U+FFFD, as a UTF-8 decoder would.
    return "%EF%BF%BD";
  }
}

/**
 * The stable identity of a diagnostic for `partialFingerprints`: SHA-256 (hex) of its code, file (forward
 * slashes), message and JSON Pointer path, NUL-separated. Line and column are left out on purpose.
 *
 * @param d - The diagnostic.
 * @returns 64 lowercase hex digits.
 */
export function fingerprintDiagnostic(d: Diagnostic): string {
  const parts = [d.code, d.file.replace(/\\/g, "/"), d.message, d.path ?? ""];
  return createHash("sha256").update(parts.join("\u0000"), "utf8").digest("hex");
}
