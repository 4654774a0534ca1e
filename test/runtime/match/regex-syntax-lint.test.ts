/**
 * Where a regex syntax error surfaces for a user: `toolgate lint` (through `lintPolicySync`) refuses the rule or
 * the input schema that holds the pattern, at the pattern's line and column, with the parser's message saying
 * what is wrong and what to write instead. A refused pattern never becomes a rule that silently matches nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lintPolicySync } from "toolgate";
import { afterAll, describe, expect, it } from "vitest";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function lint(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-regex-lint-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return lintPolicySync({ cwd: dir }).diagnostics.map((d) => ({
    code: d.code,
    file: d.file,
    line: d.line,
    column: d.column,
    message: d.message,
  }));
}

const TOOLS = `tools:
  - name: run
    description: Run a command.
    input_schema:
      type: object
      properties:
        command: { type: string, maxLength: 4096 }
      required: [command]
      additionalProperties: false
`;

describe("lint: regex rules that do not parse", () => {
  it("refuses each one at its pattern, with the parser's message", () => {
    const policy = `version: 1
allow: [run]
rules:
  - id: brace
    tools: [run]
    decision: deny
    when:
      command: { regex: "^rm {" }
    reason: a lone brace
  - id: range
    tools: [run]
    decision: deny
    when:
      command: { regex: "[z-a]" }
    reason: a range out of order
  - id: twice
    tools: [run]
    decision: deny
    when:
      command: { regex: { pattern: "^sudo+*", flags: i } }
    reason: two quantifiers
  - id: escape
    tools: [run]
    decision: deny
    when:
      command: { regex: "\\\\e\\\\[" }
    reason: an unknown escape
  - id: property
    tools: [run]
    decision: deny
    when:
      command: { regex: { pattern: "\\\\p{Lu}" } }
    reason: a property escape
  - id: fine
    tools: [run]
    decision: deny
    when:
      command: { regex: "^(?<verb>rm|mv) -[rf]{1,2}\\\\b" }
    reason: a pattern that parses
`;
    expect(
      lint({
        "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
        "tools.yaml": TOOLS,
        "policy.yaml": policy,
      }),
    ).toEqual([
      {
        code: "invalid-regex",
        file: "policy.yaml",
        line: 8,
        column: 25,
        message:
          'regex "^rm {": lone {: a { must start a quantifier such as {2,5}; escape a literal { as \\{',
      },
      {
        code: "invalid-regex",
        file: "policy.yaml",
        line: 14,
        column: 25,
        message: 'regex "[z-a]": range out of order in character class: write the smaller character first',
      },
      {
        code: "invalid-regex",
        file: "policy.yaml",
        line: 20,
        column: 36,
        message:
          'regex "^sudo+*": nothing to repeat: a quantifier cannot follow another quantifier; group the first one with (?:...)',
      },
      {
        code: "invalid-regex",
        file: "policy.yaml",
        line: 26,
        column: 25,
        message:
          'regex "\\\\e\\\\[": unknown escape \\e: escape only punctuation; for the letter itself drop the backslash',
      },
      {
        code: "invalid-regex",
        file: "policy.yaml",
        line: 32,
        column: 36,
        message:
          'regex "\\\\p{Lu}": Unicode property escapes (\\p{...}) are not supported: list the characters in a class instead',
      },
    ]);
  });

  it("refuses an input-schema pattern the engine cannot run, at the pattern", () => {
    const tools = TOOLS.replace(
      "command: { type: string, maxLength: 4096 }",
      'command: { type: string, pattern: "^(?!rm )" }',
    );
    expect(
      lint({
        "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
        "tools.yaml": tools,
        "policy.yaml": "version: 1\nallow: [run]\n",
      }),
    ).toEqual([
      {
        code: "invalid-input-schema",
        file: "tools.yaml",
        line: 7,
        column: 43,
        message:
          'tool "run": input_schema is not a valid JSON Schema: pattern "^(?!rm )": lookahead (?! is not supported: regex rules run on a linear-time engine; rewrite the pattern without lookaround',
      },
    ]);
  });
});
