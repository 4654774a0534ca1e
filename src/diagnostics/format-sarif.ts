/** The `sarif` formatter: SARIF 2.1.0 for code-scanning services (GitHub code scanning and others). */

import { createHash } from "node:crypto";
import { type Diagnostic, sortDiagnostics } from "./diagnostic.js";
import type { DiagnosticMeta } from "./diagnostic-table.js";
import { helpUri as referenceHelpUri } from "./rule-help.js";

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
  /** The table of diagnostic codes (`DIAGNOSTICS`): each rule's descriptions, help and default level. */
  readonly table: readonly DiagnosticMeta[];
  /** Overrides for the table's descriptions, by code. */
  readonly ruleDescriptions?: ReadonlyMap<string, string>;
  /** Where each code is explained (default: its row of the policy reference, `helpUri` of rule-help.ts). */
  readonly helpUri?: (code: string) => string;
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
 * @param options - The tool version, the table of codes and optional rule description overrides.
 * @returns Pretty-printed JSON (2-space indent) ending in a newline.
 */
export function formatSarif(diagnostics: readonly Diagnostic[], options: SarifOptions): string {
  const sorted = sortDiagnostics(diagnostics);
  const codes = [...new Set(sorted.map((d) => d.code))].sort();
  const ruleIndex = new Map(codes.map((code, index) => [code, index]));

  const table = new Map(options.table.map((d) => [d.code, d]));
  const helpUri = options.helpUri ?? referenceHelpUri;
  const rules = codes.map((code) => {
    const meta = table.get(code);
    // A code the table lacks is a programmer error; the log still names its rule rather than failing.
    if (meta === undefined) return { id: code, helpUri: helpUri(code) };
    return {
      id: code,
      shortDescription: { text: options.ruleDescriptions?.get(code) ?? meta.description },
      fullDescription: { text: meta.meaning },
      help: {
        text: `${meta.meaning} What to do: ${meta.fix} See ${helpUri(code)}`,
        markdown: `${meta.meaning}\n\n**What to do:** ${meta.fix}\n\n[Reference: \`${code}\`](${helpUri(code)})`,
      },
      helpUri: helpUri(code),
      defaultConfiguration: { level: meta.severity },
    };
  });

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
