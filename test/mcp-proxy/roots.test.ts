/**
 * Roots in the MCP gateway, in process with a stand-in for the server: an absolute path argument under a root is
 * decided relative to it (so `glob: "src/**"` allows it for certain), one outside every root stays absolute
 * (never a certain allow), a link is decided with its target, and the server gets the arguments as sent.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { loadPolicy, type PolicyBundle } from "toolgate";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CallExtra, McpGateway } from "../../src/mcp-proxy/gateway.js";
import { writeRootsConfig } from "./roots-fixture.js";

const ROOT_DIR = "/srv/project";

let dir: string;
let bundle: PolicyBundle;
beforeAll(async () => {
  ({ dir } = writeRootsConfig());
  bundle = await loadPolicy({ cwd: dir });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** What the stand-in server was called with. */
let forwarded: { name: string; arguments: unknown }[] = [];
const upstream = {
  callTool: async (params: { name: string; arguments?: unknown }) => {
    forwarded.push({ name: params.name, arguments: params.arguments });
    return { content: [{ type: "text", text: "contents" }] };
  },
} as unknown as Client;

const gateways: McpGateway[] = [];
afterEach(async () => {
  forwarded = [];
  logged = [];
  for (const gateway of gateways.splice(0)) await gateway.close();
});

let logged: string[] = [];

function gateway(roots: readonly string[], links: Readonly<Record<string, string>> = {}): McpGateway {
  const made = new McpGateway({
    bundle,
    upstream,
    serverTools: bundle.tools.map((tool) => ({ name: tool.name, inputSchema: tool.inputSchema })),
    askTimeoutMs: 20,
    pollIntervalMs: 5,
    cwd: dir,
    log: (line) => {
      logged.push(line);
    },
    roots,
    resolveLink: (path) => links[path],
  });
  gateways.push(made);
  return made;
}

const extra = (more: Partial<CallExtra> = {}): CallExtra => ({
  signal: new AbortController().signal,
  sendNotification: async () => undefined,
  ...more,
});

const textOf = (result: CallToolResult): string =>
  result.content.map((item) => (item.type === "text" ? item.text : "")).join("\n");

async function read(g: McpGateway, path: string, more: Partial<CallExtra> = {}): Promise<CallToolResult> {
  return g.callTool({ name: "read_text_file", arguments: { path } }, extra(more));
}

describe("mcp-proxy roots", () => {
  it("allows a read of <root>/src/a.txt for certain, and forwards the path as sent", async () => {
    const g = gateway([ROOT_DIR]);
    const result = await read(g, `${ROOT_DIR}/src/a.txt`);
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toBe("contents");
    expect(forwarded).toEqual([{ name: "read_text_file", arguments: { path: `${ROOT_DIR}/src/a.txt` } }]);
  });

  it("reads a root given with a trailing slash, and a path with dots and doubled slashes, the same way", async () => {
    const g = gateway([`${ROOT_DIR}/`]);
    for (const path of [`${ROOT_DIR}//src/./lib/b.ts`, `${ROOT_DIR}/src/lib/../a.txt`]) {
      const result = await read(g, path);
      expect(result.isError, path).not.toBe(true);
    }
    expect(forwarded.map((f) => (f.arguments as { path: string }).path)).toEqual([
      `${ROOT_DIR}//src/./lib/b.ts`,
      `${ROOT_DIR}/src/lib/../a.txt`,
    ]);
  });

  it("never allows <root>/../x, /etc/passwd, a sibling directory or the root itself", async () => {
    const g = gateway([ROOT_DIR]);
    for (const path of [
      `${ROOT_DIR}/../x`,
      `${ROOT_DIR}/src/../../x`,
      "/etc/passwd",
      "/srv/project2/src/a.txt",
      ROOT_DIR,
      `${ROOT_DIR}/README.md`,
    ]) {
      const result = await read(g, path);
      expect(result.isError, path).toBe(true);
      expect(textOf(result), path).toContain("needs a person's approval");
    }
    expect(forwarded).toEqual([]);
  });

  it("without a root the same read is not allowed (an absolute path is never plain)", async () => {
    const g = gateway([]);
    const result = await read(g, `${ROOT_DIR}/src/a.txt`);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("a read outside src/ needs a person's approval");
    expect(forwarded).toEqual([]);
  });

  it("keeps deny rules on the relative path and on the path as sent", async () => {
    const g = gateway([ROOT_DIR]);
    const env = await read(g, `${ROOT_DIR}/src/.env`);
    expect(textOf(env)).toBe("denied by policy: secret files (.env) are never read (rule: no-secret-files)");
    const keys = await read(g, `${ROOT_DIR}/src/keys/id_ed25519`);
    expect(textOf(keys)).toBe(
      "denied by policy: the keys are never read, however the path is written (rule: no-keys)",
    );
    expect(forwarded).toEqual([]);
  });

  it("the longest root holding the path wins", async () => {
    const g = gateway([ROOT_DIR, `${ROOT_DIR}/packages/app`]);
    // Relative to /srv/project it is packages/app/src/a.txt; relative to the longer root, src/a.txt.
    expect((await read(g, `${ROOT_DIR}/packages/app/src/a.txt`)).isError).not.toBe(true);
    expect((await read(g, `${ROOT_DIR}/packages/lib/a.txt`)).isError).toBe(true);
  });

  it("decides a link with its target: a target outside every root is never a certain allow", async () => {
    const g = gateway([ROOT_DIR], {
      [`${ROOT_DIR}/src/passwd`]: "/etc/passwd",
      [`${ROOT_DIR}/src/env`]: `${ROOT_DIR}/.env`,
      [`${ROOT_DIR}/src/b.txt`]: `${ROOT_DIR}/src/lib/b.txt`,
      [ROOT_DIR]: ROOT_DIR,
    });
    expect(textOf(await read(g, `${ROOT_DIR}/src/passwd`))).toContain("needs a person's approval");
    expect(textOf(await read(g, `${ROOT_DIR}/src/env`))).toContain("rule: no-secret-files");
    expect((await read(g, `${ROOT_DIR}/src/b.txt`)).isError).not.toBe(true);
    expect(forwarded.map((f) => f.arguments)).toEqual([{ path: `${ROOT_DIR}/src/b.txt` }]);
  });

  it("reads every element of an array argument the policy reads with glob under all", async () => {
    const g = gateway([ROOT_DIR]);
    const inside = await g.callTool(
      {
        name: "read_multiple_files",
        arguments: { paths: [`${ROOT_DIR}/src/a.txt`, `${ROOT_DIR}/src/b.txt`] },
      },
      extra(),
    );
    expect(inside.isError).not.toBe(true);
    const mixed = await g.callTool(
      { name: "read_multiple_files", arguments: { paths: [`${ROOT_DIR}/src/a.txt`, "/etc/passwd"] } },
      extra(),
    );
    expect(mixed.isError).toBe(true);
    expect(forwarded.map((f) => f.arguments)).toEqual([
      { paths: [`${ROOT_DIR}/src/a.txt`, `${ROOT_DIR}/src/b.txt`] },
    ]);
  });

  it("takes the client's roots (roots/list) as roots too", async () => {
    const g = gateway([]);
    const withRoots = extra({ roots: async () => [ROOT_DIR] });
    expect((await read(g, `${ROOT_DIR}/src/a.txt`, withRoots)).isError).not.toBe(true);
    expect((await read(g, "/etc/passwd", withRoots)).isError).toBe(true);
  });

  it("audits the path as decided and keeps the path as sent", async () => {
    const g = gateway([ROOT_DIR]);
    const lines = () =>
      readFileSync(join(dir, ".toolgate/audit.jsonl"), "utf8")
        .split("\n")
        .filter((line) => line !== "");
    await read(g, "/etc/hosts");
    const before = lines().length;
    await read(g, `${ROOT_DIR}/src/a.txt`);
    // Call ids restart with each gateway: only this call's events.
    const events = lines()
      .slice(before)
      .map((line) => JSON.parse(line));
    const decided = events.filter((e) => e.type === "policy.decided").at(-1);
    expect(decided).toMatchObject({ decision: "allow", ruleIds: ["read-src"] });
    const withArguments = events.filter((e) => e.callId === decided.callId && e.arguments !== undefined);
    expect(withArguments.length).toBeGreaterThan(0);
    for (const event of withArguments) {
      expect(event).toMatchObject({
        arguments: { path: "src/a.txt" },
        sentArguments: { path: `${ROOT_DIR}/src/a.txt` },
      });
    }
  });

  it("an approved ask forwards the path as sent; the form and the log show it with the path as decided", async () => {
    const g = gateway([ROOT_DIR]);
    const messages: string[] = [];
    const result = await read(g, `${ROOT_DIR}/README.md`, {
      elicit: async (params) => {
        messages.push(params.message);
        return { action: "accept", content: { approve: true } };
      },
    });
    expect(result.isError).not.toBe(true);
    expect(forwarded).toEqual([{ name: "read_text_file", arguments: { path: `${ROOT_DIR}/README.md` } }]);
    expect(messages[0]).toContain(`with {"path":"${ROOT_DIR}/README.md"} (decided as {"path":"README.md"}`);
    expect(logged.join("\n")).toContain(`(decided with path "${ROOT_DIR}/README.md" read as "README.md")`);
  });
});
