// `toolgate mcp-proxy --listen`: the same gate over MCP Streamable HTTP, for several client sessions at once.
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN, ROOT } from "../cli/cli-helpers.js";

const FIXTURE = join(ROOT, "test/fixtures/mcp-filesystem");
const SERVER = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

/** Runs the built CLI without blocking this process (its HTTP client must keep running meanwhile). */
function cli(
  args: readonly string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

const textOf = (result: unknown): string =>
  (result as CallToolResult).content.map((item) => (item.type === "text" ? item.text : "")).join("\n");

describe("toolgate mcp-proxy --listen (Streamable HTTP)", () => {
  let root: string;
  let config: string;
  let workspace: string;
  let proxy: ChildProcess;
  let stderr = "";
  let url: URL;
  let token: string;
  const clients: Client[] = [];
  /** The client transport with the bearer token the proxy wrote into the workspace's .toolgate/. */
  const transport = () =>
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });

  async function connect(name: string): Promise<Client> {
    const client = new Client({ name, version: "1.0.0" });
    await client.connect(transport());
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    assertBuilt();
    root = mkdtempSync(join(tmpdir(), "toolgate-mcp-http-"));
    cpSync(FIXTURE, join(root, "config"), { recursive: true });
    config = join(root, "config/toolgate.config.yaml");
    workspace = join(root, "workspace");
    mkdirSync(join(workspace, "notes"), { recursive: true });
    writeFileSync(join(workspace, "notes/todo.txt"), "ship the gateway\n");
    writeFileSync(join(workspace, ".env"), "API_TOKEN=never-leaves-the-server\n");
    proxy = spawn(
      process.execPath,
      [
        BIN,
        "mcp-proxy",
        "--config",
        config,
        "--listen",
        "127.0.0.1:0",
        "--",
        process.execPath,
        SERVER,
        workspace,
      ],
      { cwd: workspace, stdio: ["ignore", "ignore", "pipe"] },
    );
    proxy.stderr?.on("data", (d) => {
      stderr += d;
    });
    const start = Date.now();
    for (;;) {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) {
        url = new URL(match[1] as string);
        token = readFileSync(join(workspace, ".toolgate/mcp-proxy.token"), "utf8").trim();
        break;
      }
      if (Date.now() - start > 30_000 || proxy.exitCode !== null)
        throw new Error(`the proxy did not listen: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    if (proxy.exitCode === null) proxy.kill("SIGTERM");
  });

  it("gates calls of two sessions with one policy: list, allow, deny", async () => {
    const a = await connect("session-a");
    const b = await connect("session-b");
    const [listA, listB] = await Promise.all([a.listTools(), b.listTools()]);
    const names = listA.tools.map((t) => t.name);
    expect(names).toEqual([
      "read_text_file",
      "write_file",
      "edit_file",
      "create_directory",
      "list_directory",
      "search_files",
      "get_file_info",
      "list_allowed_directories",
    ]);
    expect(listB.tools.map((t) => t.name)).toEqual(names);
    const read = await a.callTool({ name: "read_text_file", arguments: { path: "notes/todo.txt" } });
    expect(textOf(read)).toBe("ship the gateway\n");
    const denied = await b.callTool({ name: "read_text_file", arguments: { path: ".env" } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toBe(
      "denied by policy: secret files (.env) are never read or written (rule: no-secret-files)",
    );
  });

  it("an ask waits in its session while a person approves from a terminal; the call runs once", async () => {
    const client = await connect("session-c");
    const call = client.callTool(
      { name: "write_file", arguments: { path: "notes/http.txt", content: "over http\n" } },
      undefined,
      { timeout: 60_000 },
    );
    let id: string | undefined;
    const start = Date.now();
    while (id === undefined) {
      const listed = await cli(
        ["approvals", "list", "--config", config, "--format", "json", "--status", "pending"],
        root,
      );
      id = JSON.parse(listed.stdout)[0]?.request.approvalId;
      if (Date.now() - start > 30_000) throw new Error("no pending approval");
    }
    const approved = await cli(["approvals", "approve", id, "--config", config], root);
    expect(approved.code, approved.stderr).toBe(0);
    const result = await call;
    expect(result.isError, textOf(result)).not.toBe(true);
    expect(readFileSync(join(workspace, "notes/http.txt"), "utf8")).toBe("over http\n");
    const executed = readFileSync(join(root, "config/.toolgate/audit.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.includes('"tool.executed"') && line.includes('"write_file"'));
    expect(executed).toHaveLength(1);
  });

  it("asks a client that supports elicitation over its own session; an approval runs the call once", async () => {
    const client = new Client(
      { name: "eliciting", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { approve: true } };
    });
    await client.connect(transport());
    clients.push(client);
    const result = await client.callTool({ name: "create_directory", arguments: { path: "made-over-http" } });
    expect(result.isError, textOf(result)).not.toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('create_directory with {"path":"made-over-http"}');
    expect(existsSync(join(workspace, "made-over-http"))).toBe(true);
  });

  it("refuses a Host header that is not its own (DNS rebinding) and a request without a session", async () => {
    const send = (headers: Record<string, string>, body: string) =>
      new Promise<{ status: number; body: string }>((done, fail) => {
        const req = request(
          url,
          {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              ...headers,
            },
          },
          (res) => {
            let text = "";
            res.on("data", (d) => {
              text += d;
            });
            res.on("end", () => done({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on("error", fail);
        req.end(body);
      });
    const auth = { authorization: `Bearer ${token}` };
    const rebound = await send({ ...auth, host: `evil.example:${url.port}` }, "{}");
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain("Invalid Host header: evil.example");
    // Every loopback spelling with the right port is this server; another port is not.
    for (const host of [
      `localhost:${url.port}`,
      `LOCALHOST:${url.port}`,
      `127.1.2.3:${url.port}`,
      `[::1]:${url.port}`,
    ]) {
      expect((await send({ ...auth, host }, "{}")).status, host).not.toBe(403);
    }
    expect((await send({ ...auth, host: `127.0.0.1:${Number(url.port) + 1}` }, "{}")).status).toBe(403);
    const noSession = await send(auth, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    expect(noSession.status).toBe(400);
    expect(noSession.body).toContain("start with an initialize request");
    expect(existsSync(join(workspace, "notes/todo.txt"))).toBe(true);
  });

  it("refuses every request without the bearer token, and the token file is readable by its owner only", async () => {
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "intruder", version: "1" },
      },
    });
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: initialize,
      });
    for (const headers of [
      {},
      { authorization: "Bearer wrong-token-wrong-token" },
      { authorization: token },
    ]) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
    }
    expect(statSync(join(workspace, ".toolgate/mcp-proxy.token")).mode & 0o777).toBe(0o600);
  });

  it("a client cannot take up another client's waiting request, nor answer it", async () => {
    const pendingFor = async (path: string) => {
      const listed = await cli(
        ["approvals", "list", "--config", config, "--format", "json", "--status", "pending"],
        root,
      );
      return (
        JSON.parse(listed.stdout) as {
          request: { approvalId: string; call: { arguments: { path?: string } } };
        }[]
      )
        .filter((p) => p.request.call.arguments.path === path)
        .map((p) => p.request.approvalId);
    };
    const waiting = await connect("first");
    const first = waiting.callTool(
      { name: "write_file", arguments: { path: "notes/not-yours.txt", content: "x\n" } },
      undefined,
      { timeout: 60_000 },
    );
    let ids: string[] = [];
    const start = Date.now();
    while (ids.length === 0) {
      ids = await pendingFor("notes/not-yours.txt");
      if (Date.now() - start > 30_000) throw new Error("no pending approval");
    }
    // A second client, answering every elicitation with yes, calls the same tool with the same arguments.
    const intruder = new Client(
      { name: "first", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } } },
    );
    intruder.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { approve: true },
    }));
    await intruder.connect(transport());
    clients.push(intruder);
    await intruder.callTool({
      name: "write_file",
      arguments: { path: "notes/not-yours.txt", content: "x\n" },
    });
    // It answered its own request only: the first client's request still waits for a person.
    expect(await pendingFor("notes/not-yours.txt")).toEqual(ids);
    const rejected = await cli(
      ["approvals", "reject", ids[0] as string, "--config", config, "--reason", "not this one"],
      root,
    );
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(textOf(await first)).toContain("rejected");
  });

  it("stops on SIGTERM with exit code 0", async () => {
    const exited = new Promise<number | null>((done) => proxy.once("exit", (code) => done(code)));
    proxy.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
