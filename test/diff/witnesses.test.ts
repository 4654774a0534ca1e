import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { JsonlAuditSink, PostgresAuditSink } from "toolgate/stores";
import { afterAll, describe, expect, it } from "vitest";
import { readRecordedCalls } from "../../src/diff/recorded-calls.js";
import { regexExamples } from "../../src/diff/regex-examples.js";
import { minimalValue } from "../../src/diff/schema-values.js";
import { generateWitnesses } from "../../src/diff/witnesses.js";
import { compileRegex } from "../../src/runtime/match/regex/index.js";
import type { StatementSpec } from "../../src/runtime/policy.js";
import type { JsonSchema } from "../../src/runtime/types.js";
import { ValidatorFactory } from "../../src/validation/argument-validator.js";
import { describePostgres, dropTables, uniquePrefix } from "../stores/helpers.js";

const factory = new ValidatorFactory();
function validatorOf(schema: JsonSchema) {
  const compiled = factory.compile(schema);
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.validator;
}

describe("regexExamples", () => {
  it("gives strings the pattern matches: each alternative, classes, counted repetition", () => {
    expect(regexExamples("^npm test$")).toEqual(["npm test"]);
    expect(regexExamples("(^|\\s)(rg|ag|ack)(\\s|$)")).toEqual(["rg ", " rg ", "ag ", "ack ", "rg"]);
    expect(regexExamples("\\.[eE][nN][vV]")).toContain(".env");
    expect(regexExamples("^[A-Z]{3}-\\d+$", "u")).toEqual(["AAA-0", "AAA-00", "AAA-01"]);
  });

  it("every example matches its pattern (property over patterns built from literals, classes and repetition)", () => {
    const atom = fc.oneof(
      fc.constantFrom("a", "b", "\\.", "\\d", "\\w", "\\s", "[a-c]", "[^x]", ".", "(x|yz)", "\\b"),
      fc.string({ minLength: 1, maxLength: 2, unit: fc.constantFrom("q", "r", "-", "/") }),
    );
    const piece = fc.tuple(atom, fc.constantFrom("", "*", "+", "?", "{2}", "{1,3}")).map(([a, q]) => a + q);
    const pattern = fc
      .tuple(fc.boolean(), fc.array(piece, { minLength: 1, maxLength: 5 }), fc.boolean())
      .map(([start, pieces, end]) => `${start ? "^" : ""}${pieces.join("")}${end ? "$" : ""}`);
    fc.assert(
      fc.property(pattern, fc.constantFrom("", "i", "u"), (p, flags) => {
        const compiled = compileRegex(p, flags);
        if (!compiled.ok) return;
        const examples = regexExamples(p, flags);
        for (const e of examples) expect(compiled.regex.test(e)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("minimalValue", () => {
  it("satisfies formats, patterns, bounds, multipleOf, enums, nested required objects and minItems", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        email: { type: "string", format: "email" },
        code: { type: "string", pattern: "^[A-Z]{2}\\d{3}$" },
        amount: { type: "integer", minimum: 10, multipleOf: 25 },
        level: { type: "string", enum: ["low", "high"] },
        owner: {
          type: "object",
          properties: { id: { type: "integer", exclusiveMinimum: 5 } },
          required: ["id"],
          additionalProperties: false,
        },
        tags: { type: "array", items: { type: "string", minLength: 3 }, minItems: 2 },
      },
      required: ["email", "code", "amount", "level", "owner", "tags"],
      additionalProperties: false,
    };
    const value = minimalValue(schema, schema);
    expect(validatorOf(schema)(value)).toEqual({ ok: true });
  });
});

describe("generateWitnesses", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: {
      path: { type: "string", minLength: 1, maxLength: 64, pattern: "^[a-z./_-]+$" },
      size: { type: "integer", minimum: 0, maximum: 500 },
    },
    required: ["path"],
    additionalProperties: false,
  };
  const rule = (when: StatementSpec["when"]): StatementSpec => ({
    id: "r",
    kind: "rule",
    action: "deny",
    tools: ["t"],
    reason: "r",
    ...(when === undefined ? {} : { when }),
  });

  it("returns only calls valid against the input schema, and covers each literal from inside and outside", () => {
    const validate = validatorOf(schema);
    const calls = generateWitnesses({
      tool: "t",
      schemas: [schema],
      contextSchemas: [],
      changed: [
        rule({ path: { glob: "**/.env*" } }),
        rule({ path: { glob: "**/.env" }, size: { max: 100 } }),
      ],
      others: [rule({ path: { path_prefix: "src" } })],
      isValid: (args) => validate(args).ok,
    });
    expect(calls.length).toBeGreaterThan(10);
    for (const call of calls) expect(validate(call.arguments)).toEqual({ ok: true });
    const paths = calls.map((c) => (c.arguments as { path: string }).path);
    expect(paths).toEqual(expect.arrayContaining([".env", ".envx", "a/.envx", "src/.envx", ".en"]));
    const sizes = calls.map((c) => (c.arguments as { size?: number }).size).filter((s) => s !== undefined);
    expect(sizes).toEqual(expect.arrayContaining([100, 99, 101]));
  });

  it("commands: with and without more words, chained, case-folded and quoted", () => {
    const shell: JsonSchema = {
      type: "object",
      properties: { command: { type: "string", maxLength: 200 } },
      required: ["command"],
    };
    const validate = validatorOf(shell);
    const calls = generateWitnesses({
      tool: "t",
      schemas: [shell],
      contextSchemas: [],
      changed: [rule({ command: { command: ["git status"] } })],
      others: [],
      isValid: (args) => validate(args).ok,
    });
    const commands = calls.map((c) => (c.arguments as { command: string }).command);
    expect(commands).toEqual(
      expect.arrayContaining([
        "git status",
        "git status file.txt",
        "git statusx",
        "git status; rm -rf x",
        "GIT status",
        '"git" status',
        "git",
      ]),
    );
  });
});

describe("generateWitnesses: exact commands, command options, wildcard hosts", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: { command: { type: "string", maxLength: 200 }, url: { type: "string", maxLength: 200 } },
  };
  const validate = validatorOf(schema);
  const values = (when: StatementSpec["when"], field: "command" | "url") =>
    generateWitnesses({
      tool: "t",
      schemas: [schema],
      contextSchemas: [],
      changed: [
        { id: "r", kind: "rule", action: "allow", tools: ["t"], reason: "r", ...(when ? { when } : {}) },
      ],
      others: [],
      isValid: (args) => validate(args).ok,
    }).map((c) => (c.arguments as Record<string, string>)[field]);

  it("an exact prefix gives the command alone and with more words; options give each option", () => {
    expect(values({ command: { command: ["npm test$"] } }, "command")).toEqual(
      expect.arrayContaining(["npm test", "npm test file.txt", "npm test --zz"]),
    );
    expect(
      values({ command: { command: [{ prefix: "git log", options: ["--oneline", "--stat"] }] } }, "command"),
    ).toEqual(expect.arrayContaining(["git log --oneline", "git log --stat", "git log --zz"]));
  });

  it("a wildcard host gives several subdomains and the apex", () => {
    expect(values({ url: { url: { scheme: ["https"], host: ["*.github.com"] } } }, "url")).toEqual(
      expect.arrayContaining(["https://zz.github.com/", "https://a.b.github.com/", "https://github.com/"]),
    );
  });
});

describe("readRecordedCalls", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("reads call.received events of a JSONL log, merges repeats, leaves out redacted ones", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-recorded-"));
    dirs.push(dir);
    const sink = new JsonlAuditSink(join(dir, "a.jsonl"), { fsync: false });
    const base = { time: new Date(0).toISOString(), fingerprint: "sha256:x", toolName: "read_file" };
    await sink.record({ ...base, type: "call.received", callId: "1", arguments: { path: "a" } });
    await sink.record({ ...base, type: "policy.decided", callId: "1", decision: "allow", ruleIds: [] });
    await sink.record({ ...base, type: "call.received", callId: "2", arguments: { path: "a" } });
    await sink.record({ ...base, type: "call.received", callId: "3", arguments: { path: "[redacted]" } });
    await sink.record({ ...base, type: "call.received", callId: "4" });
    await sink.close();
    expect(await readRecordedCalls("a.jsonl", dir)).toEqual({
      calls: [{ tool: "read_file", arguments: { path: "a" } }],
      redacted: 2,
      read: 2,
    });
    expect(await readRecordedCalls(`jsonl:${join(dir, "a.jsonl")}`, "/")).toEqual(
      expect.objectContaining({ calls: [{ tool: "read_file", arguments: { path: "a" } }] }),
    );
    // A keyed log's URL names the log, not its key option.
    expect(await readRecordedCalls("jsonl:a.jsonl?keyEnv=AUDIT_KEY", dir)).toEqual(
      expect.objectContaining({ read: 2 }),
    );
    await expect(readRecordedCalls("sqlite:", dir)).rejects.toThrow(/missing path in "sqlite:"/);
    writeFileSync(join(dir, "bad.jsonl"), '{"type":"call.received"}\nnot json\n');
    await expect(readRecordedCalls("bad.jsonl", dir)).rejects.toThrow(/bad\.jsonl:2 is not a JSON line/);
  });
});

describePostgres("readRecordedCalls from PostgreSQL", (url) => {
  const tablePrefix = uniquePrefix();
  afterAll(() => dropTables(url, tablePrefix));

  it("reads the call.received rows the PostgreSQL sink wrote", async () => {
    const sink = new PostgresAuditSink(url, { tablePrefix });
    const base = { time: new Date(0).toISOString(), fingerprint: "sha256:x", toolName: "run_shell" };
    await sink.record({ ...base, type: "call.received", callId: "1", arguments: { command: "ls" } });
    await sink.record({ ...base, type: "tool.executed", callId: "1" });
    await sink.record({ ...base, type: "call.received", callId: "2", arguments: { command: "pwd" } });
    await sink.close();
    expect(await readRecordedCalls(url, "/", { tablePrefix })).toEqual({
      calls: [
        { tool: "run_shell", arguments: { command: "ls" } },
        { tool: "run_shell", arguments: { command: "pwd" } },
      ],
      redacted: 0,
      read: 2,
    });
  });
});
