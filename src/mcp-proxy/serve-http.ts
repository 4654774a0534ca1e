/**
 * `toolgate mcp-proxy --listen HOST:PORT`: the gateway over MCP Streamable HTTP at `/mcp`, one MCP `Server` per
 * client session (all sessions share the gateway, so its one upstream server, controller and stores). Loaded
 * only with `--listen`.
 */
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isLoopback, isLoopbackHostHeader } from "../inbox/loopback.js";
import { ToolgateError } from "../runtime/errors.js";

/** Largest request body read before a session exists (an `initialize` request is small). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The running HTTP endpoint. */
export interface HttpEndpoint {
  /** `http://HOST:PORT/mcp`, with the port actually bound. */
  readonly url: string;
  close(): Promise<void>;
}

/** Most client sessions at once: a new one beyond it is refused (idle ones are dropped first). */
export const MAX_HTTP_SESSIONS = 64;

/** A session unused this long is closed. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new ToolgateError("invalid-request", `request body over ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        reject(new ToolgateError("invalid-request", "the request body is not JSON"));
      }
    });
    req.on("error", reject);
  });
}

/**
 * Serves MCP over Streamable HTTP. Every request must carry `Authorization: Bearer TOKEN` (compared in
 * constant time): any other local process could otherwise call the gateway's tools and answer its own
 * elicitations. On a loopback host, requests must also name a loopback address and the bound port in `Host`
 * (DNS rebinding). Sessions are capped and idle ones closed.
 * @param token the bearer token (at least 16 characters).
 * @param newServer makes the MCP `Server` of one session (with the gateway's handlers).
 */
export async function serveHttp(
  listen: { readonly host: string; readonly port: number },
  token: string,
  newServer: () => Server,
  log: (line: string) => void,
  options: { readonly maxSessions?: number; readonly idleMs?: number; readonly now?: () => number } = {},
): Promise<HttpEndpoint> {
  if (token.length < 16) {
    throw new ToolgateError("invalid-option", "the MCP gateway's token must be at least 16 characters");
  }
  const expected = digest(`Bearer ${token}`);
  const authorized = (req: IncomingMessage): boolean =>
    typeof req.headers.authorization === "string" &&
    timingSafeEqual(digest(req.headers.authorization), expected);
  const maxSessions = options.maxSessions ?? MAX_HTTP_SESSIONS;
  const idleMs = options.idleMs ?? SESSION_IDLE_MS;
  const now = options.now ?? Date.now;
  const { StreamableHTTPServerTransport } = await import(
    "@modelcontextprotocol/sdk/server/streamableHttp.js"
  );
  const { isInitializeRequest } = await import("@modelcontextprotocol/sdk/types.js");
  const sessions = new Map<
    string,
    { transport: StreamableHTTPServerTransport; server: Server; lastSeen: number }
  >();
  let port = listen.port;
  const loopback = isLoopback(listen.host);

  /** Closes sessions idle longer than `idleMs`. */
  const dropIdle = async () => {
    const cutoff = now() - idleMs;
    for (const [id, session] of sessions) {
      if (session.lastSeen >= cutoff) continue;
      sessions.delete(id);
      await session.server.close().catch(() => undefined);
    }
  };

  const http = createServer((req, res) => {
    void (async () => {
      // DNS rebinding: a web page must not reach a loopback gateway under a name it controls.
      if (loopback && !isLoopbackHostHeader(req.headers.host, port))
        return reply(res, 403, `Invalid Host header: ${req.headers.host ?? "(none)"}`);
      if (!authorized(req)) {
        res.setHeader("www-authenticate", 'Bearer realm="toolgate mcp-proxy"');
        return reply(
          res,
          401,
          "missing or wrong bearer token (Authorization: Bearer TOKEN, from the token file)",
        );
      }
      const path = new URL(req.url ?? "/", "http://proxy").pathname;
      if (path !== "/mcp") return reply(res, 404, "not found: the MCP endpoint is /mcp");
      await dropIdle();
      const header = req.headers["mcp-session-id"];
      if (typeof header === "string") {
        const session = sessions.get(header);
        if (session === undefined) return reply(res, 404, "unknown or closed session; initialize a new one");
        session.lastSeen = now();
        return session.transport.handleRequest(req, res);
      }
      if (sessions.size >= maxSessions) {
        return reply(res, 503, `too many sessions (${maxSessions}); close one or wait for idle ones to end`);
      }
      if (req.method !== "POST") return reply(res, 400, "no session: start with an initialize request");
      let body: unknown;
      try {
        body = await readBody(req);
      } catch (error) {
        return reply(res, 400, error instanceof Error ? error.message : String(error));
      }
      if (!isInitializeRequest(body)) return reply(res, 400, "no session: start with an initialize request");
      const server = newServer();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, server, lastSeen: now() });
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      log(`HTTP request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) reply(res, 500, "internal error");
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(listen.port, listen.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  const hostInUrl = listen.host.includes(":") ? `[${listen.host}]` : listen.host;
  if (!loopback) {
    log(
      `listening on ${listen.host}, which is not a loopback address: every request needs the bearer token, and it travels unencrypted; put a TLS proxy in front or listen on 127.0.0.1`,
    );
  }
  const url = `http://${hostInUrl}:${port}/mcp`;
  log(`listening on ${url}`);
  return {
    url,
    close: async () => {
      for (const { server } of sessions.values()) await server.close().catch(() => undefined);
      sessions.clear();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
    },
  };
}
