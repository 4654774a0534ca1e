/**
 * `toolgate mcp-proxy [--config PATH] [--listen HOST:PORT] -- COMMAND [ARGS…]`: an MCP server on stdio (or
 * Streamable HTTP with `--listen`) that starts the real server as its child and gates every `tools/call` with
 * the configured policy. stdout belongs to the MCP client: everything toolgate says goes to stderr. The MCP
 * SDK is loaded here, never by `import "toolgate"`.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { DIAGNOSTICS } from "../config/diagnostic-codes.js";
import { loadPolicyResultSync } from "../config/load-policy.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import { DEFAULT_ASK_TIMEOUT_MS, McpGateway } from "../mcp-proxy/gateway.js";
import { serveGateway } from "../mcp-proxy/serve-gateway.js";
import { EXIT, parseListen, printError, readSourceFile, toolVersion, UsageError } from "./common.js";

/** Options of `toolgate mcp-proxy`. */
export interface McpProxyOptions {
  readonly config?: string;
  /** Seconds a call waits for an approval before its result says how to approve. */
  readonly askTimeout?: string;
  /** `HOST:PORT`: serve Streamable HTTP there instead of stdio. */
  readonly listen?: string;
  /** The bearer token's file (default: `TOOLGATE_MCP_TOKEN`, else `.toolgate/mcp-proxy.token`, made if absent). */
  readonly tokenFile?: string;
  /** `--root`: directories the agent works in (relative ones against the working directory); repeatable. */
  readonly root?: readonly string[];
}

/** Where `--listen` keeps its generated bearer token when none is given. */
export const DEFAULT_TOKEN_FILE = ".toolgate/mcp-proxy.token";

/**
 * The bearer token for `--listen`: `--token-file`, else `TOOLGATE_MCP_TOKEN`, else the default file — made
 * with a new random token (readable by its owner only, 0600) when it does not exist yet.
 */
export function readListenToken(tokenFile: string | undefined, log: (line: string) => void): string {
  const fromEnv = process.env.TOOLGATE_MCP_TOKEN;
  if (tokenFile === undefined && fromEnv !== undefined && fromEnv !== "") {
    if (fromEnv.length < 16) throw new UsageError("TOOLGATE_MCP_TOKEN must be at least 16 characters");
    return fromEnv;
  }
  const file = resolve(tokenFile ?? DEFAULT_TOKEN_FILE);
  if (tokenFile === undefined && !existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
    log(
      `wrote a new bearer token to ${DEFAULT_TOKEN_FILE} (readable by you only); clients send it as Authorization: Bearer TOKEN`,
    );
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(
      `cannot read the token file ${tokenFile ?? DEFAULT_TOKEN_FILE}: ${(error as Error).message}`,
    );
  }
  const token = text.trim();
  if (token.length < 16) {
    throw new UsageError(
      `the token in ${tokenFile ?? DEFAULT_TOKEN_FILE} is shorter than 16 characters; put a random token in it`,
    );
  }
  return token;
}

function parseAskTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_ASK_TIMEOUT_MS;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0 || Number(value) > 86_400)
    throw new UsageError(`--ask-timeout needs a number of seconds above 0 and at most 86400, got "${value}"`);
  return Math.round(Number(value) * 1000);
}

/** The child's environment: the proxy's own (the server may need its API keys), strings only. */
function childEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return env;
}

const log = (line: string): void => {
  process.stderr.write(`toolgate mcp-proxy: ${line}\n`);
};

/**
 * Runs the proxy until the client or the server goes away.
 * @returns 0 when the client closed the session (stdio) or on SIGINT/SIGTERM (HTTP); 1 when the
 *   configuration has errors or the server exited or failed; 2 for a usage error or no configuration.
 */
export async function runMcpProxy(command: readonly string[], options: McpProxyOptions): Promise<number> {
  const [program, ...args] = command;
  if (program === undefined || program === "")
    throw new UsageError(
      "give the command that starts the MCP server after --, as in: toolgate mcp-proxy -- npx @modelcontextprotocol/server-filesystem .",
    );
  const askTimeoutMs = parseAskTimeout(options.askTimeout);
  const roots = (options.root ?? []).map((root) => {
    if (root === "" || root.includes("\0") || root.startsWith("~"))
      throw new UsageError(
        `--root needs a directory (absolute, or relative to the working directory), got ${JSON.stringify(root)}`,
      );
    return resolve(root);
  });
  const listen = options.listen === undefined ? undefined : parseListen(options.listen);
  const loaded = loadPolicyResultSync(options.config === undefined ? {} : { config: options.config });
  if (loaded.bundle === undefined) {
    process.stderr.write(
      formatDiagnostics("stylish", {
        diagnostics: loaded.diagnostics,
        fingerprint: null,
        color: false,
        toolVersion: toolVersion(),
        table: DIAGNOSTICS,
        readSource: readSourceFile,
      }),
    );
    printError("the configuration has errors; fix them (toolgate lint) before starting the proxy");
    return loaded.configFound ? EXIT.findings : EXIT.usage;
  }
  const bundle = loaded.bundle;

  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const upstream = new Client({ name: "toolgate-mcp-proxy", version: toolVersion() });
  const transport = new StdioClientTransport({
    command: program,
    args,
    env: childEnvironment(),
    stderr: "inherit",
  });
  try {
    await upstream.connect(transport);
  } catch (error) {
    printError(
      `cannot start the MCP server \`${command.join(" ")}\`: ${error instanceof Error ? error.message : String(error)}`,
    );
    await upstream.close().catch(() => undefined);
    return EXIT.findings;
  }
  const serverTools = [];
  try {
    let cursor: string | undefined;
    do {
      const page = await upstream.listTools(cursor === undefined ? {} : { cursor });
      serverTools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  } catch (error) {
    printError(
      `the MCP server did not list its tools: ${error instanceof Error ? error.message : String(error)}`,
    );
    await upstream.close().catch(() => undefined);
    return EXIT.findings;
  }

  const configFlag = options.config === undefined ? "" : ` --config ${resolve(options.config)}`;
  const gateway = new McpGateway({
    bundle,
    validators: loaded.validators,
    upstream,
    serverTools,
    askTimeoutMs,
    approveCommand: `toolgate approvals approve${configFlag}`,
    log,
    roots,
  });
  for (const refused of gateway.check.refused) log(`refused tool "${refused.name}": ${refused.reason}`);
  const offered = gateway.listTools().map((tool) => tool.name);
  log(
    `offering ${offered.length} of the server's ${serverTools.length} tools: ${offered.join(", ") || "(none)"}; policy ${bundle.fingerprint}`,
  );
  const allRoots = [...roots, ...(bundle.settings.roots ?? [])];
  if (allRoots.length > 0)
    log(
      `roots: an absolute path argument under ${allRoots.join(", ")} is decided relative to the root that holds it (the client's roots are added when it declares them)`,
    );
  if (gateway.controller.approvals.store.name === "memory")
    log(
      "the configuration sets no approvals store: an ask can be approved only by a client that supports elicitation; set approvals: sqlite:.toolgate/state.db to approve from a terminal",
    );

  const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
  const { CallToolRequestSchema, ListToolsRequestSchema, RootsListChangedNotificationSchema } = await import(
    "@modelcontextprotocol/sdk/types.js"
  );
  const instructions = upstream.getInstructions();
  const newServer = () => {
    const server = new Server(
      { name: "toolgate-mcp-proxy", version: toolVersion() },
      { capabilities: { tools: {} }, ...(instructions === undefined ? {} : { instructions }) },
    );
    serveGateway(server, gateway, {
      CallToolRequestSchema,
      ListToolsRequestSchema,
      RootsListChangedNotificationSchema,
    });
    return server;
  };

  let upstreamClosed = false;
  const ended = new Promise<number>((resolveEnd) => {
    upstream.onclose = () => {
      upstreamClosed = true;
      resolveEnd(EXIT.findings);
    };
    if (listen === undefined) return;
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolveEnd(EXIT.ok));
  });
  let stop: () => Promise<void>;
  let clientGone: Promise<number>;
  if (listen === undefined) {
    const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
    const server = newServer();
    clientGone = new Promise<number>((resolveGone) => {
      server.onclose = () => resolveGone(EXIT.ok);
      // StdioServerTransport does not notice the end of stdin by itself.
      process.stdin.once("end", () => resolveGone(EXIT.ok));
    });
    await server.connect(new StdioServerTransport());
    stop = () => server.close();
  } else {
    const { serveHttp } = await import("../mcp-proxy/serve-http.js");
    let endpoint: Awaited<ReturnType<typeof serveHttp>>;
    try {
      endpoint = await serveHttp(listen, readListenToken(options.tokenFile, log), newServer, log);
    } catch (error) {
      printError(
        `cannot listen on ${options.listen}: ${error instanceof Error ? error.message : String(error)}`,
      );
      await upstream.close().catch(() => undefined);
      await gateway.close().catch(() => undefined);
      return EXIT.findings;
    }
    // Sessions come and go; the proxy runs until a signal or the server's exit.
    clientGone = new Promise<number>(() => undefined);
    stop = () => endpoint.close();
  }
  const code = await Promise.race([ended, clientGone]);
  if (upstreamClosed) printError("the MCP server exited; the proxy stops");
  await stop().catch(() => undefined);
  await upstream.close().catch(() => undefined);
  await gateway.close().catch(() => undefined);
  return code;
}
