/**
 * `toolgate fmt` changes layout only, and its layout is prettier's:
 * - a pinned small policy: nothing reordered, quoting and spacing as prettier writes them;
 * - every YAML file of the repository's policies and examples, and what `toolgate init` writes, is already
 *   formatted, and formatting gives exactly what prettier gives (no disagreement between the two);
 * - a property over generated policies written in random layouts (flow or block collections, any quoting,
 *   indentation, comments): the policy fingerprint before and after is identical, formatting twice gives the
 *   same text, and the text is prettier's;
 * - every configuration of the repository, its files scrambled into another layout and formatted back, keeps
 *   its fingerprint; and the formatted policy decides generated calls as the original does;
 * - `--sort` reorders only where order carries no meaning, and says that it did.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { format as prettierFormat } from "prettier";
import {
  createController,
  loadPolicy,
  type PolicyBundle,
  type ToolContext,
  type ToolController,
} from "toolgate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Document, isMap, isScalar, isSeq, parseDocument, Scalar, visit } from "yaml";
import { formatYamlText } from "../../src/config/format-yaml.js";
import { arbitraryForSchema, policyStrings } from "../compile/schema-arbitrary.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.ya?ml$/.test(f) && !f.includes("node_modules"))
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

const prettierYaml = (text: string) => prettierFormat(text, { parser: "yaml" });

async function formatted(text: string, options: { sort?: boolean } = {}): Promise<string> {
  const result = await formatYamlText(text, options);
  if (!result.ok)
    throw new Error(`${result.diagnostic.line}:${result.diagnostic.column}: ${result.diagnostic.message}`);
  return result.text;
}

describe("formatYamlText", () => {
  const input = `# yaml-language-server: $schema=../schemas/policy.schema.json
rules:
  # secrets first
  - reason: 'secret files are never read'
    decision: deny
    tools: [ write_file, read_file ]
    when: {path: {glob: "**/.env*"}}
    id: "no-dotenv"   # the id tests name
deny: ["delete_everything"]
allow:
    - read_file
    - list_dir
version: 1
`;

  it("changes layout only: nothing is reordered, and spacing and quotes are prettier's", async () => {
    const result = await formatYamlText(input);
    expect(result).toEqual({
      ok: true,
      reordered: false,
      text: `# yaml-language-server: $schema=../schemas/policy.schema.json
rules:
  # secrets first
  - reason: "secret files are never read"
    decision: deny
    tools: [write_file, read_file]
    when: { path: { glob: "**/.env*" } }
    id: "no-dotenv" # the id tests name
deny: ["delete_everything"]
allow:
  - read_file
  - list_dir
version: 1
`,
    });
    expect(result.ok && result.text).toBe(await prettierYaml(input));
  });

  it("sort: sets, reasons and keys in the documented order; the header comment stays on top; reordered", async () => {
    const result = await formatYamlText(input, { sort: true });
    expect(result).toEqual({
      ok: true,
      reordered: true,
      text: `# yaml-language-server: $schema=../schemas/policy.schema.json
version: 1
allow:
  - list_dir
  - read_file
deny: ["delete_everything"]
rules:
  # secrets first
  - id: "no-dotenv" # the id tests name
    tools: [read_file, write_file]
    decision: deny
    when: { path: { glob: "**/.env*" } }
    reason: "secret files are never read"
`,
    });
    // Sorted text sorts to itself, and says it moved nothing.
    const again = await formatYamlText((result as { text: string }).text, { sort: true });
    expect(again).toEqual({ ...result, reordered: false });
  });

  it("sort: an alias file's keys in the documented order, the aliases and their arguments left in order", async () => {
    const result = await formatYamlText(
      `aliases:
  - tool: shell
    arguments: { command: command, cwd: { path: cwd } }
    name: Bash
    host: claude-code
  - name: run_shell_command
    host: gemini-cli
    tool: shell
`,
      { sort: true },
    );
    expect(result).toEqual({
      ok: true,
      reordered: true,
      text: `aliases:
  - host: claude-code
    name: Bash
    tool: shell
    arguments: { command: command, cwd: { path: cwd } }
  - host: gemini-cli
    name: run_shell_command
    tool: shell
`,
    });
  });

  it("sort adds and removes nothing: a repeated tool stays repeated", async () => {
    expect(await formatted("version: 1\nallow: [b, a, b]\n", { sort: true })).toBe(
      "version: 1\nallow: [a, b, b]\n",
    );
  });

  it("refuses a file that is not well-formed YAML, with the diagnostic lint gives", async () => {
    expect(await formatYamlText("version: 1\nallow:\n\t- read_file\n", { file: "policy.yaml" })).toEqual({
      ok: false,
      diagnostic: {
        code: "yaml-syntax",
        severity: "error",
        message: "a tab indents this line, and YAML indents with spaces only; replace the tab with spaces",
        file: "policy.yaml",
        line: 3,
        column: 1,
        endLine: 3,
        endColumn: 2,
      },
    });
  });
});

/** What `toolgate init` writes (the built CLI): with no source, and with tools imported from an OpenAI file. */
function initFiles(): { path: string; text: string }[] {
  const openai = [
    {
      type: "function",
      function: {
        name: "write_file",
        description:
          "Write a UTF-8 text file inside the workspace, replacing what it held before, if anything.",
        parameters: {
          type: "object",
          properties: {
            path: { type: "string", maxLength: 4096 },
            content: { type: "string", maxLength: 100000 },
          },
          required: ["path", "content"],
          additionalProperties: false,
        },
      },
    },
    {
      type: "function",
      function: {
        name: "search",
        description: "Search.",
        parameters: { type: "object", properties: { query: { type: "string", pattern: "^[a-z]+\\d$" } } },
      },
    },
  ];
  const files: { path: string; text: string }[] = [];
  for (const [name, args] of [
    ["example", []],
    ["imported", ["--from-openai", "tools.json"]],
  ] as const) {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-fmt-init-"));
    writeFileSync(join(dir, "tools.json"), JSON.stringify(openai));
    execFileSync(process.execPath, [join(ROOT, "bin/toolgate.js"), "init", ...args], {
      cwd: dir,
      stdio: "pipe",
    });
    for (const file of yamlFiles(dir))
      files.push({ path: `${name}/${relative(dir, file)}`, text: readFileSync(file, "utf8") });
    rmSync(dir, { recursive: true, force: true });
  }
  return files;
}

describe("already formatted, and as prettier formats it", () => {
  const repository = [
    join(ROOT, "toolgate.config.yaml"),
    ...yamlFiles(join(ROOT, "policies")),
    ...yamlFiles(join(ROOT, "examples")).filter((f) => !f.includes(`${"workspace"}/`)),
  ].map((file) => ({ name: relative(ROOT, file), text: () => readFileSync(file, "utf8") }));
  const init = initFiles().map((file) => ({ name: `toolgate init: ${file.path}`, text: () => file.text }));

  it.each([...repository, ...init])("$name", async ({ text }) => {
    const original = text();
    const ours = await formatted(original);
    expect(ours).toBe(await prettierYaml(original));
    expect(ours).toBe(original);
  });
});

const TOOLS = `tools:
  - name: read_file
    description: Read a file.
    input_schema:
      type: object
      properties: { path: { type: string, maxLength: 256 } }
      required: [path]
      additionalProperties: false
  - name: run_shell
    description: Run a shell command.
    input_schema:
      type: object
      properties: { command: { type: string, maxLength: 256 } }
      required: [command]
      additionalProperties: false
  - name: fetch_url
    description: Fetch a URL.
    input_schema:
      type: object
      properties:
        url: { type: string, maxLength: 256 }
        retries: { type: integer, minimum: 0, maximum: 5 }
      required: [url]
      additionalProperties: false
  - name: delete_path
    description: Delete a path.
    input_schema: { type: object, properties: {}, additionalProperties: false }
`;
const CONFIG = "tools: [tools.yaml]\npolicy: policy.yaml\n";
const TOOL_NAMES = ["read_file", "run_shell", "fetch_url", "delete_path"] as const;

/** Strings a person writes in reasons: colons, hashes, quotes, leading dashes, words YAML reads as values. */
const reasonText = fc.constantFrom(
  "secret files are never read",
  "secrets: never",
  "it's # not a comment",
  'say "no" to this',
  "- not a list",
  "true",
  "123",
  "null",
  "a reason that is long enough that a flow mapping holding it no longer fits on one line of eighty",
  "ünïcödé and emoji 🔒",
);

const ruleArbitrary = fc.oneof(
  fc.record({
    tools: fc.constant(["read_file"]),
    decision: fc.constantFrom("allow", "ask", "deny"),
    when: fc.record({
      path: fc.record({ glob: fc.constantFrom("**/.env*", "src/**", "a b/*.ts", "[ab]*.md") }),
    }),
    reason: reasonText,
  }),
  fc.record({
    tools: fc.constant(["run_shell"]),
    decision: fc.constantFrom("ask", "deny"),
    when: fc.record({
      command: fc.record({
        command: fc.uniqueArray(fc.constantFrom("git status", "rm -rf", "npm test", "ls"), {
          minLength: 1,
          maxLength: 3,
        }),
      }),
    }),
    reason: reasonText,
  }),
  fc.record({
    tools: fc.constant(["fetch_url"]),
    decision: fc.constantFrom("ask", "deny"),
    when: fc.record({ retries: fc.record({ min: fc.integer({ min: 0, max: 5 }) }) }),
    reason: reasonText,
  }),
);

const policyArbitrary = fc
  .record({
    sets: fc.array(fc.constantFrom("allow", "ask", "deny", "none"), { minLength: 4, maxLength: 4 }),
    reasons: fc.array(fc.option(reasonText, { nil: undefined }), { minLength: 4, maxLength: 4 }),
    rules: fc.array(ruleArbitrary, { maxLength: 4 }),
  })
  .map(({ sets, reasons, rules }) => {
    const policy: Record<string, unknown> = { version: 1 };
    for (const set of ["allow", "ask", "deny"]) {
      const names = TOOL_NAMES.filter((_, i) => sets[i] === set);
      if (names.length > 0) policy[set] = names;
    }
    const given = Object.fromEntries(
      TOOL_NAMES.flatMap((name, i) =>
        sets[i] !== "none" && reasons[i] !== undefined ? [[name, reasons[i]]] : [],
      ),
    );
    if (Object.keys(given).length > 0) policy.reasons = given;
    if (rules.length > 0) policy.rules = rules.map((rule, i) => ({ id: `rule-${i}`, ...rule }));
    return policy;
  });

/** A random layout: each collection flow or block, each string plain, single- or double-quoted, comments. */
const layoutArbitrary = fc.record({
  choices: fc.array(fc.nat(5), { minLength: 64, maxLength: 64 }),
  indent: fc.constantFrom(2, 4),
  indentSeq: fc.boolean(),
});

function writeInLayout(
  data: unknown,
  layout: { choices: number[]; indent: number; indentSeq: boolean },
): string {
  const doc = new Document(data, { aliasDuplicateObjects: false });
  let n = 0;
  const next = () => layout.choices[n++ % layout.choices.length] as number;
  visit(doc, (_key, node) => {
    if (isMap(node) || isSeq(node)) {
      node.flow = next() % 2 === 0;
      if (next() === 0) node.commentBefore = " a comment";
    } else if (isScalar(node) && typeof node.value === "string") {
      node.type = [Scalar.PLAIN, Scalar.QUOTE_DOUBLE, Scalar.QUOTE_SINGLE][next() % 3];
    }
  });
  if (isMap(doc.contents)) doc.contents.flow = false;
  doc.commentBefore = " yaml-language-server: $schema=schemas/policy.schema.json";
  return doc.toString({ indent: layout.indent, indentSeq: layout.indentSeq, lineWidth: 0 });
}

async function fingerprintOf(policy: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-fmt-prop-"));
  try {
    writeFileSync(join(dir, "toolgate.config.yaml"), CONFIG);
    writeFileSync(join(dir, "tools.yaml"), TOOLS);
    writeFileSync(join(dir, "policy.yaml"), policy);
    return (await loadPolicy({ config: join(dir, "toolgate.config.yaml") })).fingerprint;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("fmt is layout-only (property over generated policies)", () => {
  it("keeps the fingerprint, is idempotent, and writes what prettier writes (60 runs)", async () => {
    let rewritten = 0;
    await fc.assert(
      fc.asyncProperty(policyArbitrary, layoutArbitrary, async (policy, layout) => {
        const text = writeInLayout(policy, layout);
        const once = await formatted(text);
        if (once !== text) rewritten++;
        expect(await fingerprintOf(once)).toBe(await fingerprintOf(text));
        expect(await formatted(once)).toBe(once);
        expect(once).toBe(await prettierYaml(text));
        expect(parseDocument(once).toJS()).toEqual(policy);
      }),
      { numRuns: 60 },
    );
    // Not vacuous: most generated layouts are not prettier's.
    expect(rewritten).toBeGreaterThan(30);
  });
});

/** The same data in another layout: every collection in block style, or every one in flow style. */
function scrambled(text: string, flow: boolean): string {
  const doc = parseDocument(text, { version: "1.2" });
  visit(doc, (_key, node) => {
    if (isMap(node) || isSeq(node)) node.flow = flow;
  });
  if (isMap(doc.contents)) doc.contents.flow = false;
  return doc.toString({ lineWidth: 0, indent: 4, indentSeq: false });
}

const COMPILE_FIXTURES = join(ROOT, "test", "fixtures", "compile");
// A case is a configuration (`config`, relative to `dir`) and what to copy along with it: a compile fixture
// may name another fixture's files (`../command-options/policy.yaml`), so every fixture is copied.
const CASES = [
  ...[
    "toolgate.config.yaml",
    "examples/notes-agent/toolgate.config.yaml",
    "examples/coding-agent/mcp/toolgate.config.yaml",
    "policies/packs/agents/toolgate.config.yaml",
    "policies/packs/claude-code/toolgate.config.yaml",
    "policies/packs/gemini-cli/toolgate.config.yaml",
  ].map((config) => ({
    name: config,
    dir: ROOT,
    include:
      config === "toolgate.config.yaml"
        ? ["toolgate.config.yaml", "policies", "schemas"]
        : [dirname(config), "schemas"],
    config,
  })),
  ...readdirSync(COMPILE_FIXTURES).map((name) => ({
    name: `test/fixtures/compile/${name}`,
    dir: COMPILE_FIXTURES,
    include: readdirSync(COMPILE_FIXTURES),
    config: join(name, "toolgate.config.yaml"),
  })),
];

/** A copy of a configuration's directory whose YAML files are scrambled into another layout, then formatted. */
async function scrambledAndFormattedCopy(
  dir: string,
  include: readonly string[],
  flow: boolean,
): Promise<string> {
  const copy = mkdtempSync(join(tmpdir(), "toolgate-fmt-"));
  for (const entry of include) {
    mkdirSync(dirname(join(copy, entry)), { recursive: true });
    cpSync(join(dir, entry), join(copy, entry), { recursive: true });
  }
  for (const file of yamlFiles(copy)) {
    const text = scrambled(readFileSync(file, "utf8"), flow);
    writeFileSync(file, await formatted(text));
  }
  return copy;
}

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

describe.each(CASES)(
  "every policy of the repository keeps its fingerprint: $name",
  ({ dir, include, config }) => {
    const copies: string[] = [];
    let original: PolicyBundle;
    let formattedBundle: PolicyBundle;
    beforeAll(async () => {
      original = await loadPolicy({ config: join(dir, config) });
      for (const flow of [false, true]) copies.push(await scrambledAndFormattedCopy(dir, include, flow));
      formattedBundle = await loadPolicy({ config: join(copies[0] as string, config) });
    });
    afterAll(() => {
      for (const copy of copies) rmSync(copy, { recursive: true, force: true });
    });

    it("scrambled into block or flow layout, then formatted: the same fingerprint", async () => {
      for (const copy of copies) {
        expect((await loadPolicy({ config: join(copy, config) })).fingerprint).toBe(original.fingerprint);
      }
    });

    it("decides every generated call as the original does (200 runs)", () => {
      const handlers = (bundle: PolicyBundle) =>
        Object.fromEntries(bundle.tools.map((t) => [t.name, () => "ok"]));
      const before = createController({ bundle: original, handlers: handlers(original) });
      const after = createController({ bundle: formattedBundle, handlers: handlers(formattedBundle) });
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
      let n = 0;
      fc.assert(
        fc.property(calls, contexts, (generated, context) => {
          const call = { callId: `c${n++}`, ...generated };
          expect(decisionOf(after, call, context)).toEqual(decisionOf(before, call, context));
        }),
        { numRuns: 200 },
      );
    });
  },
);
