/**
 * Serves an `McpGateway` on one MCP `Server` (one client session): the SDK's request handlers, elicitation
 * when the client declares it, and the client's roots. The SDK is only referenced by type here (its schemas
 * are passed in), so that loading this file never loads it.
 */
import { fileURLToPath } from "node:url";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolRequest, ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import type { CallExtra, McpGateway } from "./gateway.js";

/** How long the gateway waits for the client's `roots/list` answer before deciding without its roots. */
const ROOTS_TIMEOUT_MS = 10_000;

/**
 * The directories of a client's roots: each `file://` URI as an absolute path. Other URIs name no directory
 * on this machine and are left out.
 */
export function clientRootPaths(roots: readonly { readonly uri: string }[]): readonly string[] {
  const paths: string[] = [];
  for (const root of roots) {
    if (!root.uri.startsWith("file://")) continue;
    try {
      const path = fileURLToPath(root.uri);
      if (path.startsWith("/")) paths.push(path);
    } catch {
      // A file URI with a host or an encoded slash names no local directory.
    }
  }
  return paths;
}

/**
 * Serves a gateway on one MCP `Server` (one client session): `tools/list` and `tools/call` handlers, with
 * elicitation when the client declares it, and the client's roots (`roots/list`, asked once and again after
 * `notifications/roots/list_changed`) when it declares the roots capability.
 * @param types the SDK's request schemas (passed in so that this file loads the SDK only by type).
 */
export function serveGateway(
  server: Server,
  gateway: McpGateway,
  types: {
    readonly ListToolsRequestSchema: Parameters<Server["setRequestHandler"]>[0];
    readonly CallToolRequestSchema: Parameters<Server["setRequestHandler"]>[0];
    readonly RootsListChangedNotificationSchema?: Parameters<Server["setNotificationHandler"]>[0];
  },
): void {
  // The client's roots, asked for on the first call that needs them; forgotten when the client says they
  // changed, or when asking failed (the call is then decided without them: never looser).
  let clientRoots: Promise<readonly string[]> | undefined;
  const rootsOf = (relatedRequestId: string | number): Promise<readonly string[]> => {
    if (server.getClientCapabilities()?.roots === undefined) return Promise.resolve([]);
    if (clientRoots === undefined) {
      const asked = server
        .listRoots(undefined, { relatedRequestId, timeout: ROOTS_TIMEOUT_MS })
        .then((result) => clientRootPaths(result.roots))
        .catch(() => {
          if (clientRoots === asked) clientRoots = undefined;
          return [] as readonly string[];
        });
      clientRoots = asked;
    }
    return clientRoots;
  };
  if (types.RootsListChangedNotificationSchema !== undefined) {
    server.setNotificationHandler(types.RootsListChangedNotificationSchema, async () => {
      clientRoots = undefined;
    });
  }
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: gateway.listTools() }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
    const params = (request as CallToolRequest).params;
    const capabilities = server.getClientCapabilities();
    const canElicit =
      capabilities?.elicitation !== undefined &&
      (capabilities.elicitation.form !== undefined || capabilities.elicitation.url === undefined);
    const clientName = server.getClientVersion()?.name;
    const progressToken = params._meta?.progressToken;
    return gateway.callTool(params, {
      signal: extra.signal,
      sendNotification: extra.sendNotification as CallExtra["sendNotification"],
      ...(progressToken === undefined ? {} : { progressToken }),
      ...(canElicit
        ? {
            elicit: (p: ElicitRequestFormParams) =>
              server.elicitInput(p, {
                signal: extra.signal,
                relatedRequestId: extra.requestId,
                timeout: gateway.askTimeoutMs,
              }),
          }
        : {}),
      ...(clientName === undefined ? {} : { clientName }),
      ...(extra.sessionId === undefined ? {} : { sessionId: extra.sessionId }),
      roots: () => rootsOf(extra.requestId),
    });
  });
}
