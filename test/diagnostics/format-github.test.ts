import { describe, expect, it } from "vitest";
import { type Diagnostic, escapeData, escapeProperty, formatGithub } from "../../src/diagnostics/index.js";
import { SAMPLE } from "./sample.js";

const error = (extra: Partial<Diagnostic>): Diagnostic => ({
  code: "config-schema",
  severity: "error",
  message: "bad",
  file: "p.yaml",
  line: 1,
  column: 1,
  ...extra,
});

/** The workflow commands that annotate (without the group lines and the summary). */
const commands = (text: string) =>
  text
    .split("\n")
    .filter((line) => /^::(error|warning) /.test(line))
    .map((line) => `${line}\n`)
    .join("");

describe("formatGithub", () => {
  it("prints nothing for no diagnostics", () => {
    expect(formatGithub([])).toBe("");
  });

  it("prints one workflow command per diagnostic, sorted, grouped by file, warnings as ::warning, then a summary", () => {
    expect(formatGithub(SAMPLE)).toBe(
      [
        "::group::policies/policy.yaml (2 problems)",
        '::error file=policies/policy.yaml,line=4,col=10,endLine=4,endColumn=21,title=overlap::tool "apply_patch" is in both allow (line 3) and ask (line 4); keep it in one',
        '::warning file=policies/policy.yaml,line=12,col=3,title=unlisted-tool::tool "list_dir" has no statement, so it is always denied; add it to allow, ask or deny',
        "::endgroup::",
        "::group::policies/tools/fs.yaml (1 problem)",
        "::error file=policies/tools/fs.yaml,line=7,col=1,title=yaml-syntax::unexpected end of flow sequence",
        "::endgroup::",
        "toolgate: 3 problems (2 errors, 1 warning)",
        "",
      ].join("\n"),
    );
  });

  it("escapes %, CR and LF in the message, and leaves : and , there as they are", () => {
    expect(commands(formatGithub([error({ message: "100% sure:\r\nline two, really\nend" })]))).toBe(
      "::error file=p.yaml,line=1,col=1,title=config-schema::100%25 sure:%0D%0Aline two, really%0Aend\n",
    );
  });

  it("escapes %, CR, LF, : and , in property values", () => {
    expect(commands(formatGithub([error({ file: "dir:x/a,b 50%\r\n.yaml" })]))).toBe(
      "::error file=dir%3Ax/a%2Cb 50%25%0D%0A.yaml,line=1,col=1,title=config-schema::bad\n",
    );
  });

  it("escapes exactly as @actions/core does, including already-escaped text", () => {
    expect(escapeData("a%0Ab\r\n:,")).toBe("a%250Ab%0D%0A:,");
    expect(escapeProperty("a%0Ab\r\n:,")).toBe("a%250Ab%0D%0A%3A%2C");
  });

  it("leaves out unknown positions and a missing file, and uses forward slashes", () => {
    expect(
      commands(
        formatGithub([
          error({
            file: "",
            line: 0,
            column: 0,
            code: "config-not-found",
            message: "no toolgate config found",
          }),
          error({ file: "policies\\tools\\a.yaml", line: 3, column: 0, endColumn: 4 }),
        ]),
      ),
    ).toBe(
      [
        "::error title=config-not-found::no toolgate config found",
        "::error file=policies/tools/a.yaml,line=3,endColumn=4,title=config-schema::bad",
        "",
      ].join("\n"),
    );
  });
});
