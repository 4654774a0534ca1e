/**
 * Tool aliases in the core: how a host's call maps onto a canonical tool (each source kind), which alias a host
 * tool name finds (exact names before patterns, patterns in the order written, one host's aliases only), when
 * a declared tool is decided as itself, and that a mapping copies keys as data (`__proto__` included).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AliasTable,
  applyAlias,
  describeAlias,
  isNamePattern,
  namePatternParts,
  type ToolAlias,
} from "../../src/runtime/tool-aliases.js";
import type { JsonValue } from "../../src/runtime/types.js";

const noParts = new Map<string, string>();
const asIs = (path: string) => [path];

const read: ToolAlias = {
  host: "claude-code",
  name: "Read",
  tool: "read_file",
  arguments: [["path", { kind: "path", name: "file_path" }]],
};
const write: ToolAlias = {
  host: "claude-code",
  name: "Write",
  tool: "write_file",
  arguments: [
    ["path", { kind: "path", name: "file_path" }],
    ["operation", { kind: "value", value: "update" }],
  ],
};
const mcp: ToolAlias = {
  host: "claude-code",
  name: "mcp__{server}__{tool}",
  tool: "mcp_call",
  arguments: [
    ["name", { kind: "tool-name" }],
    ["server", { kind: "name-part", part: "server" }],
    ["tool", { kind: "name-part", part: "tool" }],
    ["input", { kind: "all-arguments" }],
  ],
};

describe("applyAlias", () => {
  it("maps each source kind onto the canonical arguments, in the order written", () => {
    const [call] = applyAlias(
      write,
      noParts,
      { name: "Write", arguments: { file_path: "/p/a.ts", content: "x" } },
      "c1",
      asIs,
    );
    expect(call).toEqual({
      callId: "c1",
      toolName: "write_file",
      arguments: { path: "/p/a.ts", operation: "update" },
    });
    expect(Object.keys(call?.arguments as object)).toEqual(["path", "operation"]);
  });

  it("reads a path through readPath: one call per reading", () => {
    const calls = applyAlias(read, noParts, { name: "Read", arguments: { file_path: "/P/x" } }, "c", (p) => [
      p,
      p.toLowerCase(),
    ]);
    expect(calls.map((c) => c.arguments)).toEqual([{ path: "/P/x" }, { path: "/p/x" }]);
  });

  it("passes a path that is not a string through unread (the schema decides it)", () => {
    const calls = applyAlias(read, noParts, { name: "Read", arguments: { file_path: 7 } }, "c", () => {
      throw new Error("not a path");
    });
    expect(calls.map((c) => c.arguments)).toEqual([{ path: 7 }]);
  });

  it("leaves an argument the host did not send absent, and an `absent` source never sets one", () => {
    const shell: ToolAlias = {
      host: "codex",
      name: "Bash",
      tool: "shell",
      arguments: [
        ["command", { kind: "argument", name: "command" }],
        ["directory", { kind: "absent" }],
      ],
    };
    expect(applyAlias(shell, noParts, { name: "Bash", arguments: {} }, "c", asIs)[0]?.arguments).toEqual({});
    expect(
      applyAlias(shell, noParts, { name: "Bash", arguments: { command: "ls", directory: "/" } }, "c", asIs)[0]
        ?.arguments,
    ).toEqual({ command: "ls" });
  });

  it("fills name parts, the tool's name and the whole argument object", () => {
    const table = new AliasTable([mcp], "claude-code");
    const found = table.find("mcp__db__query");
    expect(found?.alias).toBe(mcp);
    const [call] = applyAlias(
      mcp,
      found?.parts as ReadonlyMap<string, string>,
      { name: "mcp__db__query", arguments: { sql: "select 1" } },
      "c",
      asIs,
    );
    expect(call?.arguments).toEqual({
      name: "mcp__db__query",
      server: "db",
      tool: "query",
      input: { sql: "select 1" },
    });
  });

  it("keeps a __proto__ key as data: a canonical argument named __proto__ is an own property", () => {
    const odd: ToolAlias = {
      host: "opencode",
      name: "x",
      tool: "t",
      arguments: [["__proto__", { kind: "argument", name: "constructor" }]],
    };
    const args = JSON.parse('{"constructor": {"polluted": true}}') as { [key: string]: JsonValue };
    const [call] = applyAlias(odd, noParts, { name: "x", arguments: args }, "c", asIs);
    const out = call?.arguments as object;
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("property: the canonical call has exactly the mapped arguments the host sent, with their values", () => {
    const key = fc.constantFrom("a", "b", "c", "__proto__", "toString", "constructor");
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.jsonValue() as fc.Arbitrary<JsonValue>),
        fc.uniqueArray(fc.tuple(key, key), { selector: ([target]) => target, maxLength: 4 }),
        (sent, mapping) => {
          const host = JSON.parse(JSON.stringify(sent)) as { [key: string]: JsonValue };
          const alias: ToolAlias = {
            host: "codex",
            name: "T",
            tool: "canonical",
            arguments: mapping.map(([target, from]) => [target, { kind: "argument", name: from }] as const),
          };
          const [call] = applyAlias(alias, noParts, { name: "T", arguments: host }, "c", asIs);
          const out = call?.arguments as { [key: string]: JsonValue };
          const expected = mapping.filter(([, from]) => Object.hasOwn(host, from));
          expect(Object.keys(out).sort()).toEqual(expected.map(([target]) => target).sort());
          for (const [target, from] of expected) expect(out[target]).toEqual(host[from]);
        },
      ),
    );
  });
});

describe("AliasTable", () => {
  it("finds exact names before patterns, and only the host's own aliases", () => {
    const exact: ToolAlias = { host: "claude-code", name: "mcp__db__query", tool: "db_query", arguments: [] };
    const other: ToolAlias = { host: "codex", name: "Read", tool: "elsewhere", arguments: [] };
    const table = new AliasTable([mcp, exact, other, read], "claude-code");
    expect(table.find("mcp__db__query")?.alias).toBe(exact);
    expect(table.find("mcp__db__other")?.alias).toBe(mcp);
    expect(table.find("Read")?.alias).toBe(read);
    expect(table.find("Bash")).toBeUndefined();
    expect(new AliasTable([mcp, exact, other, read], "codex").find("Read")?.alias).toBe(other);
    expect(table.size).toBe(3);
  });

  it("the first alias of a name wins; patterns are tried in the order written", () => {
    const first: ToolAlias = { host: "opencode", name: "{server}_{tool}", tool: "a", arguments: [] };
    const second: ToolAlias = { host: "opencode", name: "{x}_y", tool: "b", arguments: [] };
    const table = new AliasTable(
      [first, second, { ...read, host: "opencode" }, { ...write, host: "opencode", name: "Read" }],
      "opencode",
    );
    expect(table.find("q_y")?.alias).toBe(first);
    expect(table.find("Read")?.alias.tool).toBe("read_file");
  });

  it("a pattern part takes the shortest text that fits, literal text must match exactly", () => {
    const table = new AliasTable([mcp], "claude-code");
    expect(Object.fromEntries(table.find("mcp__a__b__c")?.parts ?? [])).toEqual({
      server: "a",
      tool: "b__c",
    });
    expect(table.find("mcp__a")).toBeUndefined();
    expect(table.find("mcp____x")).toBeUndefined();
    expect(table.find("MCP__a__b")).toBeUndefined();
    expect(table.find("xmcp__a__b")).toBeUndefined();
  });

  it("pattern literals are text, not regular expressions", () => {
    const dotted: ToolAlias = { host: "cursor", name: "a.{x}+", tool: "t", arguments: [] };
    const table = new AliasTable([dotted], "cursor");
    expect(table.find("a.q+")?.alias).toBe(dotted);
    expect(table.find("abq+")).toBeUndefined();
    expect(table.find("a.qq")).toBeUndefined();
  });

  it("finds the host's MCP pattern for an MCP call under a name no pattern fits", () => {
    const gemini: ToolAlias = { ...mcp, host: "gemini-cli", name: "mcp_{server}_{tool}" };
    expect(new AliasTable([gemini], "gemini-cli").findMcp()).toBe(gemini);
    expect(new AliasTable([{ ...read, host: "gemini-cli" }], "gemini-cli").findMcp()).toBeUndefined();
  });

  it("a declared tool is decided as itself unless it is a canonical tool this host's alias of that name maps onto", () => {
    const geminiRead: ToolAlias = { ...read, host: "gemini-cli", name: "read_file" };
    const table = new AliasTable([geminiRead], "gemini-cli");
    const declared = (name: string) => name === "read_file" || name === "own_tool";
    expect(table.decidesAsItself("read_file", declared)).toBe(false);
    expect(table.decidesAsItself("own_tool", declared)).toBe(true);
    expect(table.decidesAsItself("missing", declared)).toBe(false);
    // A host tool declared by its own name, with an alias onto another tool: decided as itself.
    const claude = new AliasTable([read], "claude-code");
    expect(claude.decidesAsItself("Read", (name) => name === "Read")).toBe(true);
  });
});

describe("name patterns and descriptions", () => {
  it("lists a pattern's parts", () => {
    expect(namePatternParts("mcp__{server}__{tool}")).toEqual(["server", "tool"]);
    expect(isNamePattern("Bash")).toBe(false);
    expect(isNamePattern("{a}_b")).toBe(true);
  });

  it("describes a mapping in one line", () => {
    expect(describeAlias(write)).toBe(
      'Write (claude-code) → write_file { path ← file_path (a path), operation ← "update" }',
    );
    expect(describeAlias(mcp)).toBe(
      "mcp__{server}__{tool} (claude-code) → mcp_call { name ← the tool's name, server ← {server}, tool ← {tool}, input ← all arguments }",
    );
  });
});
