/**
 * `toolgate fmt`'s layout: pinned on a small policy; and over every policy, tool and test file of the
 * repository's fixtures, three invariants — a formatted file formats to itself, every comment survives,
 * and the formatted policy decides every generated call exactly as the original does (a differential
 * property over fast-check calls built from each tool's input schema).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import {
  createController,
  loadPolicy,
  type PolicyBundle,
  type ToolContext,
  type ToolController,
} from "toolgate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatYamlText } from "../../src/config/format-yaml.js";
import { arbitraryForSchema, policyStrings } from "../compile/schema-arbitrary.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/** Every comment line of a YAML text (`# …` after optional indentation or after a value). */
function comments(text: string): string[] {
  return text
    .split("\n")
    .map((line) => /(?:^|\s)(#.*)$/.exec(line)?.[1]?.trim())
    .filter((c): c is string => c !== undefined);
}

describe("formatYamlText", () => {
  it("orders keys, sorts and de-duplicates sets, normalises quoting and chooses flow or block style", () => {
    const input = `# yaml-language-server: $schema=../schemas/policy.schema.json
rules:
  # secrets first
  - reason: 'secret files are never read'
    decision: deny
    tools: [write_file, read_file, read_file]
    when: {path: {glob: "**/.env*"}}
    id: "no-dotenv"   # the id tests name
deny: ["delete_everything"]
allow:
  - read_file
  - list_dir
version: 1
`;
    const result = formatYamlText(input);
    expect(result).toEqual({
      ok: true,
      kind: "policy",
      text: `# yaml-language-server: $schema=../schemas/policy.schema.json
version: 1
allow: [ list_dir, read_file ]
deny: [ delete_everything ]
rules:
  # secrets first
  - id: no-dotenv # the id tests name
    tools: [ read_file, write_file ]
    decision: deny
    when:
      path: { glob: "**/.env*" }
    reason: secret files are never read
`,
    });
  });

  it("refuses a file that is not well-formed YAML, saying where", () => {
    expect(formatYamlText("version: 1\nallow: [read_file\n")).toMatchObject({
      ok: false,
      line: expect.any(Number),
    });
  });

  const files = [
    ...yamlFiles(join(ROOT, "policies")),
    ...yamlFiles(join(ROOT, "test", "fixtures", "compile")),
    ...yamlFiles(join(ROOT, "examples")).filter((f) => !f.includes("node_modules")),
  ];

  it.each(files.map((f) => relative(ROOT, f)))(
    "%s: formats to itself the second time and keeps every comment",
    (file) => {
      const text = readFileSync(join(ROOT, file), "utf8");
      const once = formatYamlText(text);
      if (!once.ok) throw new Error(`${file}: ${once.message}`);
      const twice = formatYamlText(once.text);
      expect(twice).toEqual(once);
      expect(comments(once.text).sort()).toEqual(comments(text).sort());
    },
  );
});

/** A copy of a configuration's directory with every policy, tool and test file formatted. */
function formattedCopy(dir: string, include: readonly string[]): string {
  const copy = mkdtempSync(join(tmpdir(), "toolgate-fmt-"));
  for (const entry of include) cpSync(join(dir, entry), join(copy, entry), { recursive: true });
  let rewritten = 0;
  for (const file of yamlFiles(copy)) {
    const text = readFileSync(file, "utf8");
    const result = formatYamlText(text);
    if (!result.ok) throw new Error(`${file}: ${result.message}`);
    if (result.text !== text) rewritten++;
    writeFileSync(file, result.text);
  }
  // Not vacuous: the fixtures are not all formatted already.
  expect(rewritten).toBeGreaterThan(0);
  return copy;
}

const COMPILE_FIXTURES = join(ROOT, "test", "fixtures", "compile");
// A case is a configuration (`config`, relative to `dir`) and what to copy along with it: a compile fixture
// may name another fixture's files (`../command-options/policy.yaml`), so every fixture is copied.
const CASES = [
  {
    name: "reference policy",
    dir: ROOT,
    include: ["toolgate.config.yaml", "policies"],
    config: "toolgate.config.yaml",
  },
  ...readdirSync(COMPILE_FIXTURES).map((name) => ({
    name,
    dir: COMPILE_FIXTURES,
    include: readdirSync(COMPILE_FIXTURES),
    config: join(name, "toolgate.config.yaml"),
  })),
];

function decisionOf(
  controller: ToolController,
  call: Parameters<ToolController["explain"]>[0],
  context?: ToolContext,
) {
  const explained = controller.explain(call, context);
  if ("callId" in explained) return { invalid: explained };
  return {
    action: explained.decision.action,
    reason: explained.decision.reason,
    ruleIds: [...explained.decision.ruleIds].sort(),
  };
}

describe.each(CASES)("the formatted policy decides as the original: $name", ({ dir, include, config }) => {
  let copy: string;
  let original: PolicyBundle;
  let formatted: PolicyBundle;
  let before: ToolController;
  let after: ToolController;
  beforeAll(async () => {
    copy = formattedCopy(dir, include);
    original = await loadPolicy({ config: join(dir, config) });
    formatted = await loadPolicy({ config: join(copy, config) });
    const handlers = (bundle: PolicyBundle) =>
      Object.fromEntries(bundle.tools.map((t) => [t.name, () => "ok"]));
    before = createController({ bundle: original, handlers: handlers(original) });
    after = createController({ bundle: formatted, handlers: handlers(formatted) });
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it("has the same tools and the same policy tests", () => {
    expect(formatted.tools.map((t) => [t.name, t.description, t.inputSchema])).toEqual(
      original.tools.map((t) => [t.name, t.description, t.inputSchema]),
    );
    expect(formatted.tests.map((t) => [t.name, t.tool, t.arguments, t.expect])).toEqual(
      original.tests.map((t) => [t.name, t.tool, t.arguments, t.expect]),
    );
    for (const [index, test] of original.tests.entries()) {
      const call = { callId: `t${index}`, toolName: test.tool, arguments: test.arguments };
      expect(decisionOf(after, call, test.context), test.name).toEqual(
        decisionOf(before, call, test.context),
      );
    }
  });

  it("decides every generated call as the original does (400 runs)", () => {
    const hints = { strings: policyStrings(original.statements) };
    const calls = fc.oneof(
      ...original.tools.map((tool) =>
        fc.record({
          toolName: fc.constant(tool.name),
          arguments: arbitraryForSchema(tool.inputSchema, hints),
        }),
      ),
    );
    const contexts = fc.option(
      original.contextSchema === null
        ? fc.constant({})
        : (arbitraryForSchema(original.contextSchema, hints) as fc.Arbitrary<ToolContext>),
      { nil: undefined },
    );
    const seen = new Set<string>();
    let n = 0;
    fc.assert(
      fc.property(calls, contexts, (generated, context) => {
        const call = { callId: `c${n++}`, ...generated };
        const a = decisionOf(before, call, context as ToolContext | undefined);
        expect(decisionOf(after, call, context as ToolContext | undefined)).toEqual(a);
        seen.add("action" in a ? a.action : "invalid");
      }),
      { numRuns: 400 },
    );
    expect(seen.size).toBeGreaterThanOrEqual(2);
  });
});
