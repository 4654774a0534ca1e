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
