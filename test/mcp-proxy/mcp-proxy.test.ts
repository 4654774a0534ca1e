// End to end: the real @modelcontextprotocol/server-filesystem behind the built `toolgate mcp-proxy`, driven by
// the MCP SDK's own Client. Approvals are decided from another process with the built CLI.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type CallToolResult, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN, ROOT } from "../cli/cli-helpers.js";
import { describePostgres } from "../stores/helpers.js";

const FIXTURE = join(ROOT, "test/fixtures/mcp-filesystem");
const SERVER = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
const SECRET = "API_TOKEN=never-leaves-the-server";

/** The tools the fixture's policy lets the model see, in the server's order. */
const VISIBLE = [
  "read_text_file",
  "write_file",
  "edit_file",
  "create_directory",
  "list_directory",
  "search_files",
  "get_file_info",
  "list_allowed_directories",
];

interface Sandbox {
  readonly root: string;
  readonly config: string;
  readonly workspace: string;
}

/** A copy of the fixture's configuration and a fresh workspace, in a new temporary directory. */
function sandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "toolgate-mcp-"));
  const configDir = join(root, "config");
  cpSync(FIXTURE, configDir, { recursive: true });
  const workspace = join(root, "workspace");
  mkdirSync(join(workspace, "notes"), { recursive: true });
  mkdirSync(join(workspace, "secrets"), { recursive: true });
  writeFileSync(join(workspace, "notes/todo.txt"), "ship the gateway\n");
  writeFileSync(join(workspace, "secrets/.env"), `${SECRET}\n`);
  return { root, config: join(configDir, "toolgate.config.yaml"), workspace };
}

/** Runs the built CLI asynchronously (the proxy under test keeps running meanwhile). */
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

interface Connected {
  readonly client: Client;
  readonly stderr: () => string;
}

async function connect(
  box: Sandbox,
  options: { proxy?: boolean; askTimeout?: string; elicit?: (message: string) => boolean } = {},
): Promise<Connected> {
  const server = [SERVER, box.workspace];
  const args =
    options.proxy === false
      ? server
      : [
          BIN,
          "mcp-proxy",
          "--config",
          box.config,
          "--ask-timeout",
          options.askTimeout ?? "30",
          "--",
          process.execPath,
          ...server,
        ];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: box.workspace,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d) => {
    stderr += d;
  });
  const elicit = options.elicit;
  const client = new Client(
    { name: "e2e-client", version: "1.0.0" },
    { capabilities: elicit === undefined ? {} : { elicitation: { form: {} } } },
  );
  if (elicit !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const yes = elicit(request.params.message);
      return yes ? { action: "accept", content: { approve: true } } : { action: "decline" };
    });
  }
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const textOf = (result: unknown): string =>
  (result as CallToolResult).content.map((item) => (item.type === "text" ? item.text : "")).join("\n");

function auditEvents(box: Sandbox): { type: string; toolName: string; approvalId?: string }[] {
  const file = join(box.root, "config/.toolgate/audit.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

async function pendingApprovals(
  box: Sandbox,
): Promise<{ request: { approvalId: string; call: { toolName: string; arguments: unknown } } }[]> {
  const listed = await cli(
    ["approvals", "list", "--config", box.config, "--format", "json", "--status", "pending"],
    box.root,
  );
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout);
}

async function waitForPending(box: Sandbox, tool: string): Promise<string> {
  const start = Date.now();
  for (;;) {
    const found = (await pendingApprovals(box)).find((entry) => entry.request.call.toolName === tool);
    if (found !== undefined) return found.request.approvalId;
    if (Date.now() - start > 30_000) throw new Error(`no pending approval for ${tool}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("toolgate mcp-proxy in front of @modelcontextprotocol/server-filesystem", () => {
  let box: Sandbox;
  let proxy: Connected;

  beforeAll(async () => {
    assertBuilt();
    box = sandbox();
    proxy = await connect(box);
  });
  afterAll(async () => {
    await proxy?.client.close();
  });

  it("lists exactly the visible tools, and reports what it offers on stderr", async () => {
    const { tools } = await proxy.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(VISIBLE);
    // The declared schema is what the client sees (here identical to the server's).
    const spec = tools.find((t) => t.name === "read_text_file");
    expect(spec?.inputSchema).toEqual({
      type: "object",
      properties: {
        path: { type: "string" },
        tail: { description: "If provided, returns only the last N lines of the file", type: "number" },
        head: { description: "If provided, returns only the first N lines of the file", type: "number" },
      },
      required: ["path"],
      $schema: "http://json-schema.org/draft-07/schema#",
    });
    expect(proxy.stderr()).toContain(`offering 8 of the server's 14 tools: ${VISIBLE.join(", ")}`);
    expect(proxy.stderr()).not.toContain("refused tool");
  });

  it("forwards an allowed read and returns the server's answer", async () => {
    const result = await proxy.client.callTool({
      name: "read_text_file",
      arguments: { path: "notes/todo.txt" },
    });
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toBe("ship the gateway\n");
    expect(result.structuredContent).toEqual({ content: "ship the gateway\n" });
  });

  it("answers a denied path with the reason, and the server never sees it", async () => {
    // Control: the server itself would return the file.
    const direct = await connect(box, { proxy: false });
    try {
      const leaked = await direct.client.callTool({
        name: "read_text_file",
        arguments: { path: "secrets/.env" },
      });
      expect(textOf(leaked)).toContain(SECRET);
    } finally {
      await direct.client.close();
    }
    const before = auditEvents(box).filter((e) => e.type === "tool.executed").length;
    const result = await proxy.client.callTool({
      name: "read_text_file",
      arguments: { path: "secrets/.env" },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "denied by policy: secret files (.env) are never read or written (rule: no-secret-files)",
    );
    expect(JSON.stringify(result)).not.toContain("API_TOKEN");
    const events = auditEvents(box);
    expect(events.filter((e) => e.type === "tool.executed")).toHaveLength(before);
    expect(events.at(-1)).toMatchObject({
      type: "policy.decided",
      toolName: "read_text_file",
      decision: "deny",
    });
  });

  it("refuses a tool denied outright, and one the policy never offered, without reaching the server", async () => {
    const moved = await proxy.client.callTool({
      name: "move_file",
      arguments: { source: "notes/todo.txt", destination: "notes/moved.txt" },
    });
    expect(moved.isError).toBe(true);
    expect(textOf(moved)).toMatch(/^denied by policy: moving files can overwrite them/);
    expect(existsSync(join(box.workspace, "notes/todo.txt"))).toBe(true);
    expect(existsSync(join(box.workspace, "notes/moved.txt"))).toBe(false);
    const unknown = await proxy.client.callTool({ name: "delete_everything", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe("unknown tool: delete_everything");
  });

  it("waits on an ask with progress notifications; an approval from another process runs the call once", async () => {
    const progress: string[] = [];
    const call = proxy.client.callTool(
      { name: "write_file", arguments: { path: "notes/approved.txt", content: "approved by a person\n" } },
      undefined,
      { onprogress: (p) => progress.push(p.message ?? ""), timeout: 60_000 },
    );
    const id = await waitForPending(box, "write_file");
    expect(existsSync(join(box.workspace, "notes/approved.txt"))).toBe(false);
    const approved = await cli(
      ["approvals", "approve", id, "--config", box.config, "--approver", "oncall"],
      box.root,
    );
    expect(approved.code, approved.stderr).toBe(0);
    const result = await call;
    expect(result.isError, textOf(result)).not.toBe(true);
    expect(readFileSync(join(box.workspace, "notes/approved.txt"), "utf8")).toBe("approved by a person\n");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]).toContain(`toolgate approvals approve --config ${box.config} ${id}`);
    const events = auditEvents(box).filter((e) => e.approvalId === id || e.type === "tool.executed");
    expect(events.filter((e) => e.type === "tool.executed" && e.toolName === "write_file")).toHaveLength(1);
    expect(events.find((e) => e.type === "approval.granted")).toMatchObject({
      approvalId: id,
      approver: "oncall",
    });
    // The approval is used: approving it again is refused.
    const again = await cli(["approvals", "approve", id, "--config", box.config], box.root);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already used");
  });
});

describe("toolgate mcp-proxy: --ask-timeout and the retry of the same call", () => {
  it("says how to approve after the timeout; the retry after approval runs once, and only once", async () => {
    const box = sandbox();
    const proxy = await connect(box, { askTimeout: "1" });
    try {
      const args = { path: "notes/later.txt", content: "later\n" };
      const first = await proxy.client.callTool({ name: "write_file", arguments: args });
      expect(first.isError).toBe(true);
      const id = /Approval (apr_[A-Za-z0-9_-]+) is waiting/.exec(textOf(first))?.[1];
      expect(textOf(first)).toContain(`\`toolgate approvals approve --config ${box.config} ${id}\``);
      expect(textOf(first)).toContain("then call the tool again with the same arguments and it runs once");
      expect(existsSync(join(box.workspace, "notes/later.txt"))).toBe(false);
      // A retry before anyone decided waits on the same request instead of asking again.
      const early = await proxy.client.callTool({ name: "write_file", arguments: args });
      expect(textOf(early)).toContain(`Approval ${id} is waiting`);
      expect(await pendingApprovals(box)).toHaveLength(1);

      const approved = await cli(["approvals", "approve", id as string, "--config", box.config], box.root);
      expect(approved.code, approved.stderr).toBe(0);
      const retry = await proxy.client.callTool({ name: "write_file", arguments: args });
      expect(retry.isError, textOf(retry)).not.toBe(true);
      expect(readFileSync(join(box.workspace, "notes/later.txt"), "utf8")).toBe("later\n");

      // The approval is spent: the same call again asks a person anew and does not run.
      const third = await proxy.client.callTool({ name: "write_file", arguments: args });
      expect(third.isError).toBe(true);
      const secondId = /Approval (apr_[A-Za-z0-9_-]+) is waiting/.exec(textOf(third))?.[1];
      expect(secondId).toBeDefined();
      expect(secondId).not.toBe(id);
      const executed = auditEvents(box).filter(
        (e) => e.type === "tool.executed" && e.toolName === "write_file",
      );
      expect(executed).toHaveLength(1);
    } finally {
      await proxy.client.close();
    }
  });

  it("a rejection from another process reaches the model with its reason; nothing runs", async () => {
    const box = sandbox();
    const proxy = await connect(box, { askTimeout: "30" });
    try {
      const call = proxy.client.callTool({
        name: "create_directory",
        arguments: { path: "build" },
      });
      const id = await waitForPending(box, "create_directory");
      const rejected = await cli(
        [
          "approvals",
          "reject",
          id,
          "--config",
          box.config,
          "--approver",
          "lead",
          "--reason",
          "not in this change",
        ],
        box.root,
      );
      expect(rejected.code, rejected.stderr).toBe(0);
      const result = await call;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe("the person rejected this call by lead: not in this change");
      expect(existsSync(join(box.workspace, "build"))).toBe(false);
    } finally {
      await proxy.client.close();
    }
  });
});

describe("toolgate mcp-proxy: elicitation", () => {
  it("asks the person at a client that supports elicitation: yes runs once, no runs nothing", async () => {
    const box = sandbox();
    const asked: string[] = [];
    let answer = true;
    const proxy = await connect(box, {
      elicit: (message) => {
        asked.push(message);
        return answer;
      },
    });
    try {
      const yes = await proxy.client.callTool({ name: "create_directory", arguments: { path: "out" } });
      expect(yes.isError, textOf(yes)).not.toBe(true);
      expect(existsSync(join(box.workspace, "out"))).toBe(true);
      expect(asked[0]).toContain('create_directory with {"path":"out"}');
      expect(asked[0]).toContain("new directories change the workspace");

      answer = false;
      const no = await proxy.client.callTool({ name: "create_directory", arguments: { path: "out2" } });
      expect(no.isError).toBe(true);
      expect(textOf(no)).toBe(
        'the person rejected this call by mcp-client: the person chose decline (the client calls itself "e2e-client")',
      );
      expect(existsSync(join(box.workspace, "out2"))).toBe(false);
      expect(asked).toHaveLength(2);
    } finally {
      await proxy.client.close();
    }
  });
});

describe("toolgate mcp-proxy: no way to approve", () => {
  it("without elicitation and without an approvals store, an ask is rejected at once and says why", async () => {
    const box = sandbox();
    writeFileSync(box.config, "tools: [tools.yaml]\npolicy: policy.yaml\n");
    const proxy = await connect(box);
    try {
      expect(proxy.stderr()).toContain("the configuration sets no approvals store");
      const result = await proxy.client.callTool({ name: "create_directory", arguments: { path: "never" } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^this call needs a person's approval \(new directories change the workspace, so a person confirms each one\), and nobody can approve it here: this MCP client does not support elicitation and the configuration has no approvals store .*; nothing ran$/,
      );
      expect(existsSync(join(box.workspace, "never"))).toBe(false);
    } finally {
      await proxy.client.close();
    }
  });
});

describe("toolgate mcp-proxy: the start-up check", () => {
  it("refuses a server tool with no spec and one whose inputSchema differs, and reports both on stderr", async () => {
    const box = sandbox();
    const tools = readFileSync(join(box.root, "config/tools.yaml"), "utf8");
    // Drop the spec of list_allowed_directories, and let search_files declare a schema the server does not have.
    const edited = tools
      .replace(/ {2}- name: list_allowed_directories[\s\S]*$/, "")
      .replace(
        /(- name: search_files[\s\S]*?excludePatterns:\n\s+default: \[\]\n)/,
        "$1          maxItems: 5\n",
      );
    expect(edited).not.toBe(tools);
    writeFileSync(join(box.root, "config/tools.yaml"), edited);
    const policy = readFileSync(join(box.root, "config/policy.yaml"), "utf8").replace(
      " list_allowed_directories,",
      "",
    );
    writeFileSync(join(box.root, "config/policy.yaml"), policy);
    const proxy = await connect(box);
    try {
      const { tools: listed } = await proxy.client.listTools();
      expect(listed.map((t) => t.name)).toEqual(
        VISIBLE.filter((name) => name !== "search_files" && name !== "list_allowed_directories"),
      );
      expect(proxy.stderr()).toContain(
        'refused tool "list_allowed_directories": no tool spec in the configuration declares it',
      );
      expect(proxy.stderr()).toMatch(
        /refused tool "search_files": its inputSchema differs from the one declared in \S*tools\.yaml:\d+ at "\/properties\/excludePatterns\/maxItems" \(server: nothing, declared: 5\)/,
      );
      const refused = await proxy.client.callTool({
        name: "search_files",
        arguments: { path: ".", pattern: "*.txt" },
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe("unknown tool: search_files");
    } finally {
      await proxy.client.close();
    }
  });
});

describe("toolgate mcp-proxy: the server's exit", () => {
  it("stops with exit code 1 and says so when the server exits", async () => {
    const box = sandbox();
    const proxy = spawn(
      process.execPath,
      [BIN, "mcp-proxy", "--config", box.config, "--", process.execPath, SERVER, box.workspace],
      { cwd: box.workspace, stdio: ["pipe", "pipe", "pipe"] },
    );
    let stderr = "";
    proxy.stderr.on("data", (d) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((done) => proxy.on("close", (code) => done(code)));
    const start = Date.now();
    while (!stderr.includes("offering 8 of the server's 14 tools")) {
      if (Date.now() - start > 30_000) throw new Error(`the proxy did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const children = spawnSync("pgrep", ["-P", String(proxy.pid)], { encoding: "utf8" })
      .stdout.trim()
      .split("\n");
    expect(children).toHaveLength(1);
    process.kill(Number(children[0]), "SIGKILL");
    expect(await exited).toBe(1);
    expect(stderr).toContain("toolgate: the MCP server exited; the proxy stops");
  });

  it("refuses to start without a command, and with a configuration that has errors", () => {
    const box = sandbox();
    const none = spawnSync(process.execPath, [BIN, "mcp-proxy", "--config", box.config], {
      encoding: "utf8",
    });
    expect(none.status).toBe(2);
    const bad = spawnSync(
      process.execPath,
      [BIN, "mcp-proxy", "--config", box.config, "--ask-timeout", "soon", "--", "x"],
      {
        encoding: "utf8",
      },
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(
      '--ask-timeout needs a number of seconds above 0 and at most 86400, got "soon"',
    );
    writeFileSync(join(box.root, "config/policy.yaml"), "version: 1\nallow: [no_such_tool]\n");
    const broken = spawnSync(process.execPath, [BIN, "mcp-proxy", "--config", box.config, "--", "x"], {
      encoding: "utf8",
    });
    expect(broken.status).toBe(1);
    expect(broken.stdout).toBe("");
    expect(broken.stderr).toContain("unknown-tool");
    expect(broken.stderr).toContain("fix them (toolgate lint) before starting the proxy");
  });
});

describePostgres("toolgate mcp-proxy: two gateways share one PostgreSQL store", (url) => {
  it("a call that timed out in one gateway is approved from a terminal and runs once through the other", async () => {
    const box = sandbox();
    writeFileSync(
      box.config,
      // A JSONL log has one writer; several gateways share a PostgreSQL audit sink as they share the store.
      `tools: [tools.yaml]\npolicy: policy.yaml\napprovals: ${url}\naudit: { sink: "${url}" }\n`,
    );
    const first = await connect(box, { askTimeout: "1" });
    const second = await connect(box, { askTimeout: "1" });
    try {
      const args = { path: `notes/shared-${Date.now()}.txt`, content: "shared\n" };
      const asked = await first.client.callTool({ name: "write_file", arguments: args });
      const id = /Approval (apr_[A-Za-z0-9_-]+) is waiting/.exec(textOf(asked))?.[1] as string;
      expect(id).toMatch(/^apr_/);
      const approved = await cli(["approvals", "approve", id, "--config", box.config], box.root);
      expect(approved.code, approved.stderr).toBe(0);
      const ran = await second.client.callTool({ name: "write_file", arguments: args });
      expect(ran.isError, textOf(ran)).not.toBe(true);
      expect(readFileSync(join(box.workspace, args.path), "utf8")).toBe("shared\n");
      // Spent: the first gateway cannot run it again, it asks anew.
      const again = await first.client.callTool({ name: "write_file", arguments: args });
      expect(again.isError).toBe(true);
      expect(textOf(again)).not.toContain(id);
    } finally {
      await first.client.close();
      await second.client.close();
    }
  });
});
