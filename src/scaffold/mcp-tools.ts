/**
 * Lists the tools of an MCP server with the official MCP TypeScript SDK client: over stdio (a command that
 * starts the server) or Streamable HTTP (a URL). The SDK is imported only here, and only when a listing is
 * asked for, so that `import "toolgate"` and `toolgate lint` never load it.
 *
 * Each page of `tools/list` is taken as it comes, without the SDK's per-tool checks, so that one tool the SDK
 * would refuse (an input schema without `type: object`, say) is reported on its own instead of failing the
 * whole list.
 */
import { ToolgateError } from "../runtime/errors.js";

/** How to reach the server. */
export type McpServer =
  | {
      readonly kind: "stdio";
      readonly command: string;
      readonly args: readonly string[];
      /** The server's working directory (default: the current one). */
      readonly cwd?: string;
    }
  | { readonly kind: "http"; readonly url: string; readonly headers: Readonly<Record<string, string>> };

/** Thrown when the server cannot be started, reached, or does not answer `tools/list`. */
export class McpListError extends ToolgateError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("mcp-list-failed", message, options);
  }
}

/** The raw Tool objects of every page, and the server's name and version when it gave them. */
export interface McpListing {
  readonly tools: readonly unknown[];
  readonly serverName?: string;
}

/** At most this many `tools/list` pages are read; a server that keeps sending cursors is refused. */
const MAX_PAGES = 100;

/**
 * Connects, reads every page of `tools/list`, and closes the connection (stopping a stdio server).
 * @param timeoutMs the time for the whole exchange.
 * @throws McpListError with what went wrong, and for stdio the end of the server's stderr.
 */
export async function listMcpTools(server: McpServer, timeoutMs: number): Promise<McpListing> {
  const [{ Client }, { z }] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("zod"),
  ]);
  const page = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
  const client = new Client({ name: "toolgate-init", version: "1" });
  let stderr = "";
  let transport: import("@modelcontextprotocol/sdk/shared/transport.js").Transport;
  if (server.kind === "stdio") {
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const stdio = new StdioClientTransport({
      command: server.command,
      args: [...server.args],
      // The command is the user's own, typed in their shell: it gets the same environment.
      env: Object.fromEntries(
        Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === "string"),
      ),
      stderr: "pipe",
      ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
    });
    stdio.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-4000);
    });
    transport = stdio;
  } else {
    const { StreamableHTTPClientTransport } = await import(
      "@modelcontextprotocol/sdk/client/streamableHttp.js"
    );
    transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { ...server.headers } },
    });
  }
  const deadline = Date.now() + timeoutMs;
  const remaining = () => Math.max(1, deadline - Date.now());
  const where =
    server.kind === "stdio"
      ? `the MCP server started by ${server.command}`
      : `the MCP server at ${shownUrl(server.url)}`;
  try {
    try {
      await client.connect(transport, { timeout: remaining() });
    } catch (error) {
      throw new McpListError(`could not connect to ${where}: ${describe(error)}${tail(stderr)}`, {
        cause: error,
      });
    }
    const tools: unknown[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 0; ; pages++) {
      if (pages === MAX_PAGES) {
        throw new McpListError(`${where} sent more than ${MAX_PAGES} pages of tools/list; giving up`);
      }
      let result: { tools: unknown[]; nextCursor?: string | undefined };
      try {
        result = await client.request(
          { method: "tools/list", ...(cursor === undefined ? {} : { params: { cursor } }) },
          page,
          { timeout: remaining() },
        );
      } catch (error) {
        throw new McpListError(`${where} did not answer tools/list: ${describe(error)}${tail(stderr)}`, {
          cause: error,
        });
      }
      tools.push(...result.tools);
      if (result.nextCursor === undefined) break;
      if (seen.has(result.nextCursor)) {
        throw new McpListError(
          `${where} sent the tools/list cursor ${JSON.stringify(result.nextCursor)} twice`,
        );
      }
      seen.add(result.nextCursor);
      cursor = result.nextCursor;
    }
    const info = client.getServerVersion();
    return info === undefined ? { tools } : { tools, serverName: `${info.name} ${info.version}` };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** A URL without its query, fragment or user info, which may carry secrets. */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT") return `${error.message} (is the command installed and on PATH?)`;
    // The SDK's HTTP errors carry the status; their message may not (an empty 401 body, say).
    if (typeof code === "number" && !error.message.includes(String(code)))
      return `${error.message.trim()} (HTTP ${code})`;
    return error.message;
  }
  return String(error);
}

function tail(stderr: string): string {
  const text = stderr.trim();
  return text === "" ? "" : `\nthe server's stderr ended with:\n${text.split("\n").slice(-10).join("\n")}`;
}
