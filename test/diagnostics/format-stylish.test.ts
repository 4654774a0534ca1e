import { describe, expect, it } from "vitest";
import { type Diagnostic, formatStylish } from "../../src/diagnostics/index.js";
import { SAMPLE } from "./sample.js";

const warning = (file: string, line: number, column: number, message: string): Diagnostic => ({
  code: "unreachable-rule",
  severity: "warning",
  message,
  file,
  line,
  column,
});

describe("formatStylish", () => {
  it("prints nothing for no diagnostics", () => {
    expect(formatStylish([], { color: false })).toBe("");
    expect(formatStylish([], { color: true })).toBe("");
  });

  it("groups by file in sorted order and aligns the columns within each file", () => {
    expect(formatStylish(SAMPLE, { color: false })).toBe(
      [
        "",
        "policies/policy.yaml",
        '   4:10  error    tool "apply_patch" is in both allow (line 3) and ask (line 4); keep it in one           overlap',
        '  12:3   warning  tool "list_dir" has no statement, so it is always denied; add it to allow, ask or deny  unlisted-tool',
        "",
        "policies/tools/fs.yaml",
        "  7:1  error  unexpected end of flow sequence  yaml-syntax",
        "",
        "✖ 3 problems (2 errors, 1 warning)",
        "",
      ].join("\n"),
    );
  });

  it("colours errors red, warnings yellow, location and code dim, and underlines file names", () => {
    expect(formatStylish(SAMPLE, { color: true })).toBe(
      [
        "",
        "\u001b[4mpolicies/policy.yaml\u001b[24m",
        '  \u001b[2m 4:10\u001b[22m  \u001b[31merror\u001b[39m    tool "apply_patch" is in both allow (line 3) and ask (line 4); keep it in one           \u001b[2moverlap\u001b[22m',
        '  \u001b[2m12:3\u001b[22m   \u001b[33mwarning\u001b[39m  tool "list_dir" has no statement, so it is always denied; add it to allow, ask or deny  \u001b[2munlisted-tool\u001b[22m',
        "",
        "\u001b[4mpolicies/tools/fs.yaml\u001b[24m",
        "  \u001b[2m7:1\u001b[22m  \u001b[31merror\u001b[39m  unexpected end of flow sequence  \u001b[2myaml-syntax\u001b[22m",
        "",
        "\u001b[1m\u001b[31m✖ 3 problems (2 errors, 1 warning)\u001b[39m\u001b[22m",
        "",
      ].join("\n"),
    );
  });

  it("uses the singular for one, and a yellow summary when there are only warnings", () => {
    const one = [warning("p.yaml", 2, 5, "rule r2 can never decide a call")];
    expect(formatStylish(one, { color: false })).toBe(
      "\np.yaml\n  2:5  warning  rule r2 can never decide a call  unreachable-rule\n\n✖ 1 problem (0 errors, 1 warning)\n",
    );
    expect(
      formatStylish(one, { color: true }).endsWith(
        "\u001b[1m\u001b[33m✖ 1 problem (0 errors, 1 warning)\u001b[39m\u001b[22m\n",
      ),
    ).toBe(true);
  });

  it("right-aligns line numbers at the colon and left-aligns columns", () => {
    const output = formatStylish(
      [warning("p.yaml", 100, 1, "a"), warning("p.yaml", 9, 12, "bb"), warning("p.yaml", 100, 7, "ccc")],
      { color: false },
    );
    expect(output).toBe(
      [
        "",
        "p.yaml",
        "    9:12  warning  bb   unreachable-rule",
        "  100:1   warning  a    unreachable-rule",
        "  100:7   warning  ccc  unreachable-rule",
        "",
        "✖ 3 problems (0 errors, 3 warnings)",
        "",
      ].join("\n"),
    );
  });

  it("never leaves trailing whitespace, even for a multi-line message, and aligns the code after its last line", () => {
    const output = formatStylish(
      [
        warning("p.yaml", 1, 1, "first line   \n  second  "),
        warning("p.yaml", 2, 1, "short"),
        warning("", 0, 0, "no file"),
      ],
      { color: false },
    );
    expect(output).toBe(
      [
        "",
        "(no file)",
        "  0:0  warning  no file  unreachable-rule",
        "",
        "p.yaml",
        "  1:1  warning  first line",
        "  second    unreachable-rule",
        "  2:1  warning  short       unreachable-rule",
        "",
        "✖ 3 problems (0 errors, 3 warnings)",
        "",
      ].join("\n"),
    );
    for (const line of output.split("\n")) expect(line).not.toMatch(/\s$/);
  });

  it("does not reorder or change its input", () => {
    const input = [...SAMPLE];
    formatStylish(input, { color: true });
    expect(input).toEqual(SAMPLE);
  });
});

describe("formatStylish with the source in view (readSource)", () => {
  const source: Record<string, string> = {
    "policy.yaml": "version: 1\nallow: [read_file]\ndeny: [read_file]\nreasons:\n\tread_file: TODO\n",
  };
  const readSource = (file: string) => source[file];
  const diagnostics: Diagnostic[] = [
    {
      code: "overlap",
      severity: "error",
      message: 'tool "read_file" is in both allow (line 2) and deny (line 3); keep it in one',
      file: "policy.yaml",
      line: 3,
      column: 8,
      endLine: 3,
      endColumn: 17,
    },
    { ...warning("policy.yaml", 5, 1, "a tab indents this line"), endLine: 5, endColumn: 2 },
    warning("policy.yaml", 40, 1, "past the end of the file: no excerpt"),
    warning("gone.yaml", 1, 1, "a file that cannot be read: no excerpt"),
  ];

  it("shows each line with a caret under the column (a span underlined), as ESLint's codeframe does", () => {
    expect(formatStylish(diagnostics, { color: false, readSource })).toBe(
      [
        "",
        "gone.yaml",
        "  1:1  warning  a file that cannot be read: no excerpt  unreachable-rule",
        "",
        "policy.yaml",
        '   3:8  error    tool "read_file" is in both allow (line 2) and deny (line 3); keep it in one  overlap',
        "     3 | deny: [read_file]",
        "       |        ^^^^^^^^^",
        "   5:1  warning  a tab indents this line                                                       unreachable-rule",
        "     5 |     read_file: TODO",
        "       | ^^^^",
        "  40:1  warning  past the end of the file: no excerpt                                          unreachable-rule",
        "",
        "✖ 4 problems (1 error, 3 warnings)",
        "",
      ].join("\n"),
    );
  });

  it("colours the gutter dim and the carets as the severity; --no-color leaves no escape", () => {
    const one = diagnostics.slice(0, 1);
    expect(formatStylish(one, { color: true, readSource })).toBe(
      [
        "",
        "\u001b[4mpolicy.yaml\u001b[24m",
        '  \u001b[2m3:8\u001b[22m  \u001b[31merror\u001b[39m  tool "read_file" is in both allow (line 2) and deny (line 3); keep it in one  \u001b[2moverlap\u001b[22m',
        "\u001b[2m    3 |\u001b[22m deny: [read_file]",
        "\u001b[2m      |\u001b[22m        \u001b[31m^^^^^^^^^\u001b[39m",
        "",
        "\u001b[1m\u001b[31m✖ 1 problem (1 error, 0 warnings)\u001b[39m\u001b[22m",
        "",
      ].join("\n"),
    );
    expect(formatStylish(one, { color: false, readSource })).not.toContain("\u001b");
  });

  it("keeps the caret under its character after a tab, a wide character, an accent and an escaped control", () => {
    // Columns count UTF-16 code units: 日 and é are one each (three and two bytes in the file), 🔒 is two.
    const text = "reasons: {\t日本: café 🔒, \u001b[2J: x}\n";
    const at = (column: number, endColumn?: number): Diagnostic => ({
      ...warning("p.yaml", 1, column, "m"),
      ...(endColumn === undefined ? {} : { endLine: 1, endColumn }),
    });
    const frames = (d: Diagnostic) =>
      formatStylish([d], { color: false, readSource: () => text })
        .split("\n")
        .slice(3, 5);
    const line = "    1 | reasons: {    日本: café 🔒, \\u001b[2J: x}";
    // The caret line: `width` carets after `at` terminal columns of the line as shown.
    const carets = (at: number, width = 1) => `      | ${" ".repeat(at)}${"^".repeat(width)}`;
    // "café" (columns 16 to 19) shows at 20: "reasons: {" (10), the tab (4), 日本 (2 each), ": " (2).
    expect(frames(at(16, 20))).toEqual([line, carets(20, 4)]);
    // 🔒 (columns 21 and 22) is two columns wide, and so is the caret under it.
    expect(frames(at(21, 23))).toEqual([line, carets(25, 2)]);
    // "[2J" (columns 26 to 28), after ESC shown as the six characters \u001b.
    expect(frames(at(26, 29))).toEqual([line, carets(35, 3)]);
    // The tab itself, then 本.
    expect(frames(at(11))).toEqual([line, carets(10)]);
    expect(frames(at(13))).toEqual([line, carets(16)]);
    expect(frames(at(11))[1]).toBe("      |           ^");
  });

  it("counts columns after a byte order mark and before a CRLF, and marks the end of a line", () => {
    const text = "\ufeffversion: 1\r\nallow: [a\r\n";
    const output = formatStylish([warning("p.yaml", 1, 10, "m"), warning("p.yaml", 2, 10, "m")], {
      color: false,
      readSource: () => text,
    });
    expect(output.split("\n").slice(2, 8)).toEqual([
      "  1:10  warning  m  unreachable-rule",
      "    1 | version: 1",
      "      |          ^",
      "  2:10  warning  m  unreachable-rule",
      "    2 | allow: [a",
      "      |          ^",
    ]);
  });

  it("without readSource, no excerpt (the programmatic default)", () => {
    expect(formatStylish(diagnostics.slice(0, 1), { color: false })).not.toContain(" | ");
  });
});
