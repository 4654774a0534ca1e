import { describe, expect, it } from "vitest";
import type { DecisionChange, PolicyDiff } from "../../src/diff/diff-policies.js";
import { formatPolicyDiff, toPolicyDiffJson } from "../../src/diff/format-diff.js";
import type { SettingChange } from "../../src/diff/setting-changes.js";

function diffOf(decisions: DecisionChange[], settings: SettingChange[] = []): PolicyDiff {
  return {
    base: { label: "main", fingerprint: `sha256:${"a".repeat(64)}` },
    head: {
      label: "working tree",
      fingerprint: `sha256:${"b".repeat(64)}`,
      anchor: "policy.yaml",
      configFile: "toolgate.config.yaml",
    },
    statements: {
      added: [],
      removed: [],
      changed: [
        {
          id: "shell-safe",
          kind: "rule",
          fields: ["when"],
          base: {
            id: "shell-safe",
            action: "allow",
            tools: ["run_shell"],
            file: "policy.yaml",
            line: 4,
            layer: 0,
          },
          head: {
            id: "shell-safe",
            action: "allow",
            tools: ["run_shell"],
            file: "policy.yaml",
            line: 5,
            layer: 0,
          },
        },
      ],
    },
    settings,
    decisions,
    summary: {
      loosened: [...decisions, ...settings].filter((d) => d.change === "loosened").length,
      tightened: [...decisions, ...settings].filter((d) => d.change === "tightened").length,
      changed: decisions.length + settings.length,
    },
    sources: {
      base: new Map([["shell-safe", { file: "policy.yaml", line: 4 }]]),
      head: new Map([["shell-safe", { file: "policy.yaml", line: 5 }]]),
    },
    evaluated: { test: 0, recorded: 0, generated: decisions.length, engine: 0 },
    engine: [],
  };
}

const loosened = (command: string): DecisionChange => ({
  tool: "run_shell",
  arguments: { command },
  context: {},
  before: { action: "ask", statementIds: ["otherwise:run_shell"] },
  after: { action: "allow", statementIds: ["shell-safe"] },
  change: "loosened",
  source: "generated",
});

describe("formatPolicyDiff", () => {
  it("markdown: pipes, backticks and control characters in a call cannot break the table or the terminal", () => {
    const text = formatPolicyDiff(diffOf([loosened("ls | sh `x` \u001b[2J")]), "markdown");
    expect(text).toContain(
      '| `` {"command":"ls \\| sh `x` \\u001b[2J"} `` | **ask** `otherwise:run_shell` | **allow** `shell-safe` | generated |',
    );
    expect(text).not.toContain("\u001b");
  });

  it("markdown: at most ten calls per tool, then a count; a very long report is cut with a note", () => {
    const many = Array.from({ length: 25 }, (_, i) => loosened(`ls f${i}`));
    const text = formatPolicyDiff(diffOf(many), "markdown");
    expect(text.match(/^\| `\{"command":"ls f\d+"\}`/gm)?.length).toBe(10);
    expect(text).toContain("| … and 15 more | | | |");
    const huge = Array.from({ length: 3000 }, (_, i) => ({
      ...loosened(`ls ${"x".repeat(40)}${i}`),
      tool: `t${i}`,
    }));
    const cut = formatPolicyDiff(diffOf(huge), "markdown");
    expect(cut.length).toBeLessThan(61_000);
    expect(cut.endsWith("… the report is cut here; `toolgate diff --format json` prints all of it.\n")).toBe(
      true,
    );
  });

  it("json is the contract shape and nothing else", () => {
    const json = toPolicyDiffJson(diffOf([loosened("ls")]));
    expect(json).toEqual({
      base: { fingerprint: `sha256:${"a".repeat(64)}` },
      head: { fingerprint: `sha256:${"b".repeat(64)}` },
      statements: diffOf([]).statements,
      settings: [],
      decisions: [loosened("ls")],
      summary: { loosened: 1, tightened: 0, changed: 1 },
      engine: [],
    });
  });

  it("github: one escaped annotation per group, on the head line of the statement that explains it", () => {
    const text = formatPolicyDiff(diffOf([loosened("a,b:c\nd"), loosened("ls")]), "github");
    expect(text).toBe(
      '::warning file=policy.yaml,line=5,title=toolgate diff%3A loosened::loosened: run_shell was ask (otherwise:run_shell), is now allow (shell-safe); for example {"command":"a,b:c\\nd"} (generated), and 1 more call like it\n',
    );
  });

  it("stylish, without colour", () => {
    expect(formatPolicyDiff(diffOf([loosened("ls")]), "stylish")).toBe(
      [
        "toolgate diff: main (sha256:aaaaaaaaaaaa…) → working tree (sha256:bbbbbbbbbbbb…)",
        "",
        "statements",
        "  changed  shell-safe (rule: when)  policy.yaml:4 → policy.yaml:5",
        "",
        "decisions",
        '  loosened   run_shell {"command":"ls"}',
        "             ask (otherwise:run_shell) → allow (shell-safe)  [generated]",
        "",
        "1 loosened, 0 tightened; 1 statement change",
        "",
      ].join("\n"),
    );
  });
});
