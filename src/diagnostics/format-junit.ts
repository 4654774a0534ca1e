/** The `junit` formatter: JUnit XML, which CI systems show as test results. */

import { type Diagnostic, sortDiagnostics } from "./diagnostic.js";

/** Why a JUnit test case failed. */
export interface JunitFailure {
  readonly message: string;
  readonly type: string;
  readonly text: string;
}

/** One `<testcase>`. `file`, `line` and `time` (seconds) are written when given and valid. */
export interface JunitCase {
  readonly name: string;
  readonly classname: string;
  readonly file?: string;
  readonly line?: number;
  readonly time?: number;
  readonly failure?: JunitFailure;
  readonly skipped?: boolean;
  /** Text for `<system-out>` (a warning: reported, but not a failure). */
  readonly output?: string;
}

/** One `<testsuite>` and its cases. */
export interface JunitSuite {
  readonly name: string;
  readonly cases: readonly JunitCase[];
}

/**
 * Formats test suites as a JUnit XML document.
 *
 * Counts are derived from the cases: a case with a `failure` counts as failed (and is not counted as skipped
 * even if `skipped` is set); a case with `skipped: true` and no failure counts as skipped. Text is escaped for
 * XML (`& < > " '`, and CR, LF and tab inside attributes) and characters that XML 1.0 forbids (most C0 controls,
 * lone surrogates, U+FFFE, U+FFFF) are removed, so any input strings give a well-formed document.
 *
 * @param suites - The suites, written in the order given.
 * @returns The XML document ending in a newline.
 */
export function formatJunit(suites: readonly JunitSuite[]): string {
  const lines: string[] = [];
  let tests = 0;
  let failures = 0;
  for (const suite of suites) {
    const suiteFailures = suite.cases.filter((c) => c.failure !== undefined).length;
    const suiteSkipped = suite.cases.filter((c) => c.failure === undefined && c.skipped === true).length;
    tests += suite.cases.length;
    failures += suiteFailures;
    const suiteAttributes = attributes([
      ["name", suite.name],
      ["tests", String(suite.cases.length)],
      ["failures", String(suiteFailures)],
      ["skipped", String(suiteSkipped)],
    ]);
    if (suite.cases.length === 0) {
      lines.push(`  <testsuite${suiteAttributes}/>`);
      continue;
    }
    lines.push(`  <testsuite${suiteAttributes}>`);
    for (const c of suite.cases) lines.push(...formatCase(c));
    lines.push("  </testsuite>");
  }
  const rootAttributes = attributes([
    ["tests", String(tests)],
    ["failures", String(failures)],
  ]);
  const root =
    lines.length === 0
      ? [`<testsuites${rootAttributes}/>`]
      : [`<testsuites${rootAttributes}>`, ...lines, "</testsuites>"];
  return `${['<?xml version="1.0" encoding="UTF-8"?>', ...root].join("\n")}\n`;
}

function formatCase(c: JunitCase): string[] {
  const list: [string, string][] = [
    ["name", c.name],
    ["classname", c.classname],
  ];
  if (c.file !== undefined) list.push(["file", c.file]);
  if (c.line !== undefined && Number.isInteger(c.line) && c.line >= 1) list.push(["line", String(c.line)]);
  if (c.time !== undefined && Number.isFinite(c.time) && c.time >= 0) list.push(["time", c.time.toFixed(3)]);
  const open = `    <testcase${attributes(list)}`;
  if (c.failure !== undefined) {
    const failure = attributes([
      ["message", c.failure.message],
      ["type", c.failure.type],
    ]);
    return [
      `${open}>`,
      `      <failure${failure}>${escapeXmlText(c.failure.text)}</failure>`,
      "    </testcase>",
    ];
  }
  if (c.skipped === true) return [`${open}>`, "      <skipped/>", "    </testcase>"];
  if (c.output !== undefined) {
    return [`${open}>`, `      <system-out>${escapeXmlText(c.output)}</system-out>`, "    </testcase>"];
  }
  return [`${open}/>`];
}

function attributes(list: readonly (readonly [string, string])[]): string {
  return list.map(([key, value]) => ` ${key}="${escapeXmlAttribute(value)}"`).join("");
}

// Everything outside XML 1.0's Char production; with the `u` flag a lone surrogate is one unmatched code point.
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Removes the characters that XML 1.0 does not allow anywhere in a document.
 *
 * @param value - Any string.
 * @returns The string without C0 controls other than tab, LF and CR, lone surrogates, U+FFFE and U+FFFF.
 */
export function stripInvalidXmlChars(value: string): string {
  return value.replace(FORBIDDEN, "");
}

/**
 * Escapes a string for XML character data (element content).
 *
 * @param value - Any string.
 * @returns The string with forbidden characters removed, `& < > " '` escaped and CR written as `&#13;` (a raw
 * CR would be normalised away by an XML parser).
 */
export function escapeXmlText(value: string): string {
  return stripInvalidXmlChars(value).replace(/[&<>"'\r]/g, (char) => ENTITIES[char] ?? char);
}

/**
 * Escapes a string for a double-quoted XML attribute value.
 *
 * @param value - Any string.
 * @returns As {@link escapeXmlText}, and tab and LF as character references too, so that attribute-value
 * normalisation keeps them.
 */
export function escapeXmlAttribute(value: string): string {
  return stripInvalidXmlChars(value).replace(/[&<>"'\r\n\t]/g, (char) => ENTITIES[char] ?? char);
}

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  "\r": "&#13;",
  "\n": "&#10;",
  "\t": "&#9;",
};

/**
 * Turns lint diagnostics into JUnit suites: one suite per file (sorted), one case per diagnostic. An error is a
 * failing case; a warning is a passing case whose `<system-out>` carries it, so that CI shows warnings apart from
 * failures and does not fail on them (`--max-warnings` decides that). A run with no diagnostics gives one suite
 * `toolgate` with a single passing case `lint`, so the report is never empty.
 *
 * @param diagnostics - The diagnostics, in any order.
 * @returns The suites for {@link formatJunit}.
 */
export function diagnosticsToJunit(diagnostics: readonly Diagnostic[]): JunitSuite[] {
  if (diagnostics.length === 0) {
    return [{ name: "toolgate", cases: [{ name: "lint", classname: "toolgate" }] }];
  }
  const byFile = new Map<string, JunitCase[]>();
  for (const d of sortDiagnostics(diagnostics)) {
    const file = d.file.replace(/\\/g, "/");
    const text = `${d.severity}: ${d.message} (${d.code}) at ${file === "" ? "(no file)" : file}:${d.line}:${d.column}`;
    const junitCase: JunitCase = {
      name: `${d.code} at ${d.line}:${d.column}${d.severity === "warning" ? " (warning)" : ""}`,
      classname: file === "" ? "toolgate" : file,
      ...(file === "" ? {} : { file }),
      ...(d.line >= 1 ? { line: d.line } : {}),
      ...(d.severity === "error"
        ? { failure: { message: d.message, type: d.code, text } }
        : { output: text }),
    };
    const cases = byFile.get(file);
    if (cases) cases.push(junitCase);
    else byFile.set(file, [junitCase]);
  }
  return [...byFile].map(([file, cases]) => ({ name: file === "" ? "toolgate" : file, cases }));
}
