/**
 * `toolgate mcp-proxy --listen HOST:PORT`: the gateway over MCP Streamable HTTP at `/mcp`, one MCP `Server` per
 * client session (all sessions share the gateway, so its one upstream server, controller and stores). Loaded
 * only with `--listen`.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ToolgateError } from "../runtime/errors.js";

/** Largest request body read before a session exists (an `initialize` request is small). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The running HTTP endpoint. */
export interface HttpEndpoint {
  /** `http://HOST:PORT/mcp`, with the port actually bound. */
  readonly url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

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
 * Serves MCP over Streamable HTTP. On a loopback host, requests must name that host (DNS-rebinding
 * protection); on any other host there is no authentication, and the log says so.
 * @param newServer makes the MCP `Server` of one session (with the gateway's handlers).
 */
export async function serveHttp(
  listen: { readonly host: string; readonly port: number },
  newServer: () => Server,
  log: (line: string) => void,
): Promise<HttpEndpoint> {
  const { StreamableHTTPServerTransport } = await import(
    "@modelcontextprotocol/sdk/server/streamableHttp.js"
  );
  const { isInitializeRequest } = await import("@modelcontextprotocol/sdk/types.js");
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  let allowedHosts: string[] | undefined;

  const http = createServer((req, res) => {
    void (async () => {
      // DNS rebinding: a web page must not reach a loopback gateway under a name it controls.
      if (allowedHosts !== undefined && !allowedHosts.includes(req.headers.host ?? ""))
        return reply(res, 403, `Invalid Host header: ${req.headers.host ?? "(none)"}`);
      const path = new URL(req.url ?? "/", "http://proxy").pathname;
      if (path !== "/mcp") return reply(res, 404, "not found: the MCP endpoint is /mcp");
      const header = req.headers["mcp-session-id"];
      if (typeof header === "string") {
        const session = sessions.get(header);
        if (session === undefined) return reply(res, 404, "unknown or closed session; initialize a new one");
        return session.transport.handleRequest(req, res);
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
          sessions.set(id, { transport, server });
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
        ...(allowedHosts === undefined ? {} : { enableDnsRebindingProtection: true, allowedHosts }),
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
  const port = (http.address() as AddressInfo).port;
  const hostInUrl = listen.host.includes(":") ? `[${listen.host}]` : listen.host;
  if (LOOPBACK.has(listen.host)) {
    allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  } else {
    log(
      `listening on ${listen.host}, which is not a loopback address: MCP over HTTP has no authentication here; put an authenticating proxy in front or listen on 127.0.0.1`,
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
