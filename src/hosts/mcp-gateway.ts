/**
 * The MCP gateway as a host: a client's `tools/call` is read into one canonical call, `McpGateway` decides it
 * through its controller (`handle`, since an ask waits for a person there), and the answer is a
 * `CallToolResult`: the server's own result when the call ran, toolgate's text otherwise. It fails closed with
 * an error result (`isError: true`); a call it cannot read or that no offered tool has never reaches the server.
 * The SDK is only referenced by type, so that loading this file never loads it.
 */
import type { CallToolRequest, CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolCall, ToolResult } from "../runtime/types.js";
import type { HostAdapter, HostRead } from "./host-adapter.js";

/** A `tools/call` as the gateway receives it. */
export interface McpGatewayInput {
  readonly params: CallToolRequest["params"];
  /** Gives the call its id (unique in the gateway's process); asked only for a call that is read. */
  readonly nextCallId: () => string;
  /** Whether the gateway offers a tool of this name (the start-up check accepted it). */
  readonly offered: (name: string) => boolean;
}

/** What the controller gave a call, and the server's raw result when it ran. */
export interface McpGatewayOutcome {
  readonly result: ToolResult;
  readonly raw?: CallToolResult;
}

/** A text result (an error unless `isError` is false). */
export function mcpText(content: string, isError = true): CallToolResult {
  return { content: [{ type: "text", text: content }], isError };
}

/** The text of a tool result's content items (non-text items are named, not inlined). */
export function mcpResultText(result: CallToolResult): string {
  return result.content
    .map((item) => (item.type === "text" ? item.text : `[${item.type} content]`))
    .join("\n");
}

/** The MCP gateway's adapter. Its calls are decided by `McpGateway`, with their paths read against roots. */
export const mcpGatewayAdapter: HostAdapter<McpGatewayInput, ToolCall, CallToolResult, McpGatewayOutcome> = {
  host: "mcp-gateway",
  role: "gateway",
  read({ params, nextCallId, offered }): HostRead<ToolCall> {
    // Not listed: the start-up check refused it, or nobody declared it. It never reaches the server.
    if (!offered(params.name)) return { ok: false, reason: `unknown tool: ${params.name}` };
    return {
      ok: true,
      message: { callId: nextCallId(), toolName: params.name, arguments: params.arguments ?? {} },
    };
  },
  toCalls: (call) => ({ calls: [call], context: {} }),
  answer({ result, raw }) {
    // The server's own answer when it ran (all its content items); toolgate's text otherwise.
    if (raw !== undefined && result.isError === (raw.isError === true)) return raw;
    return mcpText(result.content, result.isError);
  },
  failClosed: { answer: (reason) => mcpText(reason) },
};
