// End to end: the real @modelcontextprotocol/server-filesystem behind the built `toolgate mcp-proxy`, gated by a
// path-scoped policy (`path: { glob: "src/**" }`) with the workspace as a root — from `--root`, and from the
// client's own roots (MCP roots/list, asked again after notifications/roots/list_changed).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type CallToolResult, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN, ROOT, toolgate } from "../cli/cli-helpers.js";
import { writeRootsConfig } from "./roots-fixture.js";

const SERVER = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
const INSIDE = "inside src, read without approval\n";
const README = "outside src: a person approves reads of this\n";
const OUTSIDE = "outside the workspace\n";

let scratch: string;
let workspace: string;
let config: string;
let configDir: string;

beforeAll(() => {
  assertBuilt();
  scratch = mkdtempSync(join(tmpdir(), "toolgate-mcp-roots-"));
  workspace = join(scratch, "workspace");
  mkdirSync(join(workspace, "src"), { recursive: true });
  writeFileSync(join(workspace, "src/a.txt"), INSIDE);
  writeFileSync(join(workspace, "README.md"), README);
  writeFileSync(join(scratch, "outside.txt"), OUTSIDE);
  symlinkSync(join(scratch, "outside.txt"), join(workspace, "src/link.txt"));
  ({ config, dir: configDir } = writeRootsConfig());
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(configDir, { recursive: true, force: true });
});

interface Connected {
  readonly client: Client;
  readonly stderr: () => string;
  /** Replaces the roots the client declares and tells the proxy they changed. */
  readonly setRoots: (dirs: readonly string[]) => Promise<void>;
}

async function connect(options: {
  roots?: readonly string[];
  clientRoots?: readonly string[];
}): Promise<Connected> {
  const args = [
    BIN,
    "mcp-proxy",
    "--config",
    config,
    "--ask-timeout",
    "1",
    ...(options.roots ?? []).flatMap((root) => ["--root", root]),
    "--",
    process.execPath,
    SERVER,
    workspace,
  ];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: workspace,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d) => {
    stderr += d;
  });
  let clientRoots = options.clientRoots;
  const client = new Client(
    { name: "e2e-roots-client", version: "1.0.0" },
    { capabilities: clientRoots === undefined ? {} : { roots: { listChanged: true } } },
  );
  if (clientRoots !== undefined) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: (clientRoots ?? []).map((dir) => ({ uri: pathToFileURL(dir).href, name: dir })),
    }));
  }
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    setRoots: async (dirs) => {
      clientRoots = dirs;
      await client.sendRootsListChanged();
    },
  };
}

const textOf = (result: unknown): string =>
  (result as CallToolResult).content.map((item) => (item.type === "text" ? item.text : "")).join("\n");

const read = (proxy: Connected, path: string) =>
  proxy.client.callTool({ name: "read_text_file", arguments: { path } }) as Promise<CallToolResult>;

describe("toolgate mcp-proxy --root in front of @modelcontextprotocol/server-filesystem", () => {
  let proxy: Connected;
  beforeAll(async () => {
    proxy = await connect({ roots: [workspace] });
  });
  afterAll(async () => {
    await proxy?.client.close();
  });

  it("says which roots it reads paths against", () => {
    expect(proxy.stderr()).toContain(
      `roots: an absolute path argument under ${workspace} is decided relative`,
    );
  });

  it("runs a read of <root>/src/a.txt without approval: the server answers", async () => {
    const result = await read(proxy, join(workspace, "src/a.txt"));
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toBe(INSIDE);
    expect(proxy.stderr()).not.toContain("needs a person's approval");
  });

  it("does not run a read outside src/, above the root, of /etc/passwd, or through a link out of the root", async () => {
    for (const path of [
      join(workspace, "README.md"),
      `${workspace}/../outside.txt`,
      `${workspace}/src/../../outside.txt`,
      "/etc/passwd",
      join(workspace, "src/link.txt"),
    ]) {
      const result = await read(proxy, path);
      expect(result.isError, path).toBe(true);
      expect(textOf(result), path).toMatch(
        /^this call needs a person's approval \(a read outside src\/ needs a person's approval\)/,
      );
      expect(textOf(result), path).not.toContain(README);
      expect(textOf(result), path).not.toContain(OUTSIDE);
    }
  });

  it("audits the path as decided beside the path as sent, in a log that still verifies", () => {
    const log = join(configDir, ".toolgate/audit.jsonl");
    const events = readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line));
    expect(events).toContainEqual(
      expect.objectContaining({
        toolName: "read_text_file",
        arguments: { path: "src/a.txt" },
        sentArguments: { path: join(workspace, "src/a.txt") },
      }),
    );
    const verified = toolgate(["audit", "verify", log, "--config", config], configDir);
    expect(verified.code, verified.stderr + verified.stdout).toBe(0);
  });
});

describe("toolgate mcp-proxy without --root", () => {
  it("never runs the same read without approval: an absolute path is not certain", async () => {
    const proxy = await connect({});
    try {
      const result = await read(proxy, join(workspace, "src/a.txt"));
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^this call needs a person's approval/);
    } finally {
      await proxy.client.close();
    }
  });
});

describe("toolgate mcp-proxy with the client's roots (roots/list)", () => {
  it("reads paths against the roots the client declares, and asks again when they change", async () => {
    const elsewhere = join(scratch, "elsewhere");
    mkdirSync(elsewhere, { recursive: true });
    const proxy = await connect({ clientRoots: [elsewhere] });
    try {
      const before = await read(proxy, join(workspace, "src/a.txt"));
      expect(before.isError).toBe(true);
      await proxy.setRoots([workspace]);
      // The notification and the next call race: the proxy forgets the roots when the notification arrives.
      let after: CallToolResult | undefined;
      for (let i = 0; i < 20; i++) {
        after = await read(proxy, join(workspace, "src/a.txt"));
        if (after.isError !== true) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(after?.isError).not.toBe(true);
      expect(textOf(after)).toBe(INSIDE);
      const outside = await read(proxy, join(workspace, "README.md"));
      expect(outside.isError).toBe(true);
    } finally {
      await proxy.client.close();
    }
  });
});
