/**
 * The Claude Code hook adapter in-process: reading the payload, the readings of a path against the project
 * directory, and the MCP stand-in. (The built command on recorded payloads is test/cli/hook-claude-code.test.ts.)
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hookCalls, parseHookPayload } from "../../src/adapters/claude-code-hook.js";
import { projectReadings } from "../../src/adapters/hook-payload.js";

const CWD = "/home/dev/project";

describe("projectReadings", () => {
  it.each([
    ["/home/dev/project/src/a.ts", ["src/a.ts"]],
    ["/home/dev/project", ["."]],
    ["/home/dev/project/", ["."]],
    ["/home/dev/project//src/a.ts", ["src/a.ts"]],
    ["/home/dev/project/src/../../x", ["src/../../x"]],
    ["/home/dev/project-secrets/a", ["/home/dev/project-secrets/a"]],
    ["/etc/passwd", ["/etc/passwd"]],
    ["/home/dev/PROJECT/.env", ["/home/dev/PROJECT/.env", ".env"]],
    ["src/a.ts", ["src/a.ts"]],
    ["C:\\project\\a.ts", ["C:\\project\\a.ts"]],
  ])("%s", (path, readings) => {
    expect(projectReadings(path, CWD)).toEqual(readings);
    expect(projectReadings(path, `${CWD}/`)).toEqual(readings);
  });

  const segment = fc.constantFrom("src", "a.ts", ".env", "..", ".", "", "Ä", "x y", "PROJECT", "~");
  const relative = fc.array(segment, { minLength: 1, maxLength: 6 }).map((s) => s.join("/"));

  it("property: a path inside the project reads as exactly the text after the project directory", () => {
    fc.assert(
      fc.property(relative, (rest) => {
        const readings = projectReadings(`${CWD}/${rest}`, CWD);
        expect(readings).toHaveLength(1);
        const reading = readings[0] as string;
        // Nothing is resolved or dropped but the slashes right after the project directory.
        expect(reading).toBe(rest.replace(/^\/+/, "") || ".");
      }),
    );
  });

  it("property: a path that no file system puts inside the project stays as it is, alone", () => {
    const outside = fc.constantFrom("/home/dev/projects", "/home/dev/projec", "/home", "/opt/project", "/");
    fc.assert(
      fc.property(outside, relative, (root, rest) => {
        const path = `${root}/${rest}`.replace(/^\/\//, "/");
        fc.pre(!path.toLowerCase().startsWith(`${CWD}/`) && path.toLowerCase() !== CWD);
        expect(projectReadings(path, CWD)).toEqual([path]);
      }),
    );
  });

  it("property: a path inside the project only when case is ignored has both readings, the absolute first", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("/HOME/dev/project", "/home/Dev/project", "/home/dev/Project"),
        relative,
        (root, rest) => {
          const path = `${root}/${rest}`;
          const readings = projectReadings(path, CWD);
          expect(readings[0]).toBe(path);
          expect(readings).toHaveLength(2);
        },
      ),
    );
  });
});

describe("parseHookPayload and hookCalls", () => {
  const base = {
    session_id: "s",
    transcript_path: "/t.jsonl",
    cwd: CWD,
    hook_event_name: "PreToolUse",
    tool_use_id: "toolu_1",
  };

  it("passes MCP tools to the MCP stand-in, unless the configuration declares the tool by name", () => {
    const parsed = parseHookPayload(
      JSON.stringify({ ...base, tool_name: "mcp__github__get__issue", tool_input: { n: 1 } }),
    );
    if (!parsed.ok) throw new Error(parsed.reason);
    // Without provenance the name splits two ways (server "github__get" is as possible): both are readings.
    expect(hookCalls(parsed.payload, () => false)).toEqual([
      {
        callId: "toolu_1",
        toolName: "MCP",
        arguments: { name: "mcp__github__get__issue", server: "github", tool: "get__issue", input: { n: 1 } },
      },
      {
        callId: "toolu_1",
        toolName: "MCP",
        arguments: { name: "mcp__github__get__issue", server: "github__get", tool: "issue", input: { n: 1 } },
      },
    ]);
    expect(hookCalls(parsed.payload, (n) => n === "mcp__github__get__issue")[0]?.toolName).toBe(
      "mcp__github__get__issue",
    );
  });

  it("keys the MCP server on the payload's mcp_server provenance when it names one", () => {
    const payload = (server: string) => {
      const parsed = parseHookPayload(
        JSON.stringify({
          ...base,
          tool_name: "mcp__a__b__c",
          tool_input: {},
          mcp_server: { name: server, source: "project" },
        }),
      );
      if (!parsed.ok) throw new Error(parsed.reason);
      return parsed.payload;
    };
    const servers = (server: string) =>
      hookCalls(payload(server), () => false).map((c) => [
        (c.arguments as { server: string }).server,
        (c.arguments as { tool: string }).tool,
      ]);
    expect(servers("a__b")).toEqual([["a__b", "c"]]);
    expect(servers("a")).toEqual([["a", "b__c"]]);
    // A provenance that does not fit the name is no help: every split is a reading.
    expect(servers("other")).toEqual([
      ["a", "b__c"],
      ["a__b", "c"],
    ]);
  });

  it("reads Grep and Glob without a path, or with a relative one, against the payload's cwd", () => {
    const calls = (input: object, cwd: string) => {
      const parsed = parseHookPayload(JSON.stringify({ ...base, cwd, tool_name: "Grep", tool_input: input }));
      if (!parsed.ok) throw new Error(parsed.reason);
      return hookCalls(parsed.payload, () => true, CWD).map((c) => (c.arguments as { path?: string }).path);
    };
    expect(calls({ pattern: "x" }, CWD)).toEqual([undefined]);
    expect(calls({ pattern: "x" }, `${CWD}/src`)).toEqual(["src"]);
    expect(calls({ pattern: "x" }, "/etc")).toEqual(["/etc"]);
    expect(calls({ pattern: "x", path: "lib" }, `${CWD}/src`)).toEqual(["src/lib"]);
    expect(calls({ pattern: "x", path: "ssh" }, "/home/dev/.config")).toEqual(["/home/dev/.config/ssh"]);
  });

  it("reads a symbolic link as itself and as its target", () => {
    const parsed = parseHookPayload(
      JSON.stringify({ ...base, tool_name: "Read", tool_input: { file_path: `${CWD}/notes.txt` } }),
    );
    if (!parsed.ok) throw new Error(parsed.reason);
    const links = (path: string) => (path === `${CWD}/notes.txt` ? `${CWD}/.env` : undefined);
    expect(hookCalls(parsed.payload, () => true, CWD, links).map((c) => c.arguments)).toEqual([
      { file_path: "notes.txt" },
      { file_path: ".env" },
    ]);
  });

  it("rewrites only the path field of a file tool, keeping the other fields", () => {
    const parsed = parseHookPayload(
      JSON.stringify({
        ...base,
        tool_name: "Grep",
        tool_input: { pattern: "x", path: `${CWD}/src`, "-i": true },
      }),
    );
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(hookCalls(parsed.payload, () => true)[0]?.arguments).toEqual({
      pattern: "x",
      path: "src",
      "-i": true,
    });
  });

  it.each([
    ["[]", "not a plain JSON object"],
    ['{"__proto__": {}}', "not a plain JSON object"],
    [JSON.stringify({ ...base, tool_name: "", tool_input: {} }), "tool_name"],
    [JSON.stringify({ ...base, tool_name: "Bash", tool_input: [] }), "tool_input"],
  ])("refuses %s", (text, reason) => {
    const parsed = parseHookPayload(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.reason).toContain(reason);
  });
});
