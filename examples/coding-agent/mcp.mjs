// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the scripted edit writes a TypeScript template literal into the workspace
// The demo's --mcp mode: the same kind of agent, but its tools come from a real MCP server
// (@modelcontextprotocol/server-filesystem) started behind `toolgate mcp-proxy`, and the agent talks to the
// proxy as any MCP client would (the official SDK's Client). A scripted model lists src/, reads a file (allow),
// tries .env (deny: the reason comes back, the server never sees the call) and edits a file (ask: the proxy
// asks through MCP elicitation; this client shows the request and answers it per --approve).
import { spawnSync } from "node:child_process";
import { cp, mkdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { verifyAuditLog } from "toolgate";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");

/** The scripted model's calls, in order, with what the model says before each. */
const SCRIPT = [
  { say: "Let me look at the sources.", tool: "list_directory", arguments: { path: "src" } },
  { tool: "read_text_file", arguments: { path: "src/greet.ts" } },
  {
    say: "I'll check the environment file for a locale setting.",
    tool: "read_text_file",
    arguments: { path: ".env" },
  },
  {
    say: "I'll switch the greeting to French.",
    tool: "edit_file",
    arguments: {
      path: "src/greet.ts",
      edits: [{ oldText: 'return "Hello " + name;', newText: "return `Bonjour ${name}`;" }],
    },
  },
];

/** "1 line" or "N lines": how much a tool returned. */
function lines(text) {
  const count = text.split("\n").length;
  return `${count} ${count === 1 ? "line" : "lines"}`;
}

const text = (result) =>
  result.content.map((item) => (item.type === "text" ? item.text : `[${item.type}]`)).join("\n");

/**
 * Runs the MCP demo.
 * @param {{ approve: string, state: string }} flags
 * @returns {Promise<number>} the exit code
 */
export async function runMcpDemo(flags) {
  const state = resolve(flags.state);
  await rm(state, { recursive: true, force: true });
  await mkdir(state, { recursive: true });
  const workspace = join(state, "workspace");
  const configDir = join(state, "config");
  await cp(join(here, "workspace"), workspace, { recursive: true });
  await cp(join(here, "mcp"), configDir, { recursive: true });
  const config = join(configDir, "toolgate.config.yaml");
  const server = createRequire(import.meta.url).resolve(
    "@modelcontextprotocol/server-filesystem/dist/index.js",
  );

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      join(root, "bin/toolgate.js"),
      "mcp-proxy",
      "--config",
      config,
      "--",
      process.execPath,
      server,
      workspace,
    ],
    cwd: workspace,
    stderr: "pipe",
  });
  const proxyLines = [];
  transport.stderr?.on("data", (chunk) => {
    for (const line of String(chunk).split("\n")) if (line.trim() !== "") proxyLines.push(line);
  });
  const client = new Client(
    { name: "toolgate-demo", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } } },
  );
  let terminal;
  const counts = { allow: 0, deny: 0, ask: 0, approved: 0, rejected: 0 };
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    counts.ask++;
    console.log("  ┌ the proxy asks (MCP elicitation):");
    console.log(`  │ ${request.params.message}`);
    let approved;
    if (flags.approve !== "ask") {
      approved = flags.approve === "all";
      console.log(`  └ --approve ${flags.approve}: ${approved ? "approved" : "declined"}`);
    } else if (!process.stdin.isTTY) {
      approved = false;
      console.log("  └ no terminal to ask and no --approve given: declined (fail closed)");
    } else {
      terminal ??= createInterface({ input: process.stdin, output: process.stdout });
      const answer = (await terminal.question("  └ approve? [y/N] ")).trim().toLowerCase();
      approved = answer === "y" || answer === "yes";
    }
    counts[approved ? "approved" : "rejected"]++;
    return approved ? { action: "accept", content: { approve: true } } : { action: "decline" };
  });
  await client.connect(transport);

  const { tools } = await client.listTools();
  console.log("toolgate demo — MCP: @modelcontextprotocol/server-filesystem behind toolgate mcp-proxy");
  for (const line of proxyLines) console.log(`  ${line}`);
  console.log(`tools offered to the model: ${tools.map((t) => t.name).join(", ")}`);
  console.log("user: Make greet() say hello in French.\n");

  for (const step of SCRIPT) {
    if (step.say) console.log(`model: ${step.say}`);
    console.log(`→ ${step.tool} ${JSON.stringify(step.arguments).slice(0, 100)}`);
    const asksBefore = counts.ask;
    const result = await client.callTool({ name: step.tool, arguments: step.arguments });
    const body = text(result);
    if (counts.ask > asksBefore) {
      console.log(`  ask → ${result.isError ? `error: ${body}` : `ran: ${lines(body)} of diff returned`}`);
    } else if (result.isError && body.startsWith("denied by policy")) {
      counts.deny++;
      console.log(`  deny: ${body}`);
    } else {
      counts.allow++;
      console.log(`  allow → ${result.isError ? "error" : "ran"}: ${lines(body)} returned`);
    }
  }
  console.log(
    `model: ${counts.rejected > 0 ? "I left greet() unchanged, as you declined the edit." : "greet() now says Bonjour."}`,
  );

  terminal?.close();
  await client.close();
  const auditLog = join(configDir, ".toolgate/audit.jsonl");
  const check = verifyAuditLog(auditLog);
  const listed = spawnSync(
    process.execPath,
    [
      join(root, "bin/toolgate.js"),
      "approvals",
      "list",
      "--config",
      config,
      "--status",
      "used",
      "--format",
      "json",
    ],
    { encoding: "utf8" },
  );
  const used = listed.status === 0 ? JSON.parse(listed.stdout).length : "?";
  const greet = await readFile(join(workspace, "src/greet.ts"), "utf8");
  console.log(`\nsrc/greet.ts now returns: ${/return (.*);/.exec(greet)?.[1]}`);
  console.log(
    `summary: allow ${counts.allow}, deny ${counts.deny}, ask ${counts.ask} (approved ${counts.approved}, rejected ${counts.rejected}); approvals used: ${used}`,
  );
  console.log(
    `audit: ${relative(process.cwd(), auditLog)} — ${check.ok ? `${check.lines} events, hash chain intact` : `BROKEN at line ${check.line}: ${check.message}`}`,
  );
  return check.ok ? 0 : 1;
}
