/**
 * `toolgate/adapters`: pure conversions between model providers' tool-calling formats (OpenAI Chat
 * Completions and Responses, Anthropic Messages, MCP) and toolgate's `ToolSpec`, `ToolCall` and `ToolResult`,
 * and the tool-call hooks of Claude Code (PreToolUse) and Gemini CLI (BeforeTool): payload and answer.
 * Every export here is public API. No network code.
 */

export type {
  AnthropicAssistantMessage,
  AnthropicTextBlock,
  AnthropicTool,
  AnthropicToolResultBlock,
  AnthropicToolResultMessage,
  AnthropicToolUseBlock,
} from "./anthropic.js";
export {
  fromAnthropicToolUse,
  toAnthropicAssistantMessage,
  toAnthropicToolResult,
  toAnthropicToolResultMessage,
  toAnthropicTools,
} from "./anthropic.js";
export type {
  ClaudeCodePermissionDecision,
  ClaudeCodePreToolUseInput,
  ClaudeCodePreToolUseOutput,
  HookPayloadResult,
} from "./claude-code-hook.js";
export { hookAnswer, hookCalls, MCP_TOOL, parseHookPayload } from "./claude-code-hook.js";
export type { AdapterProblem, AdapterProblemCode, ConversionResult, ReadCallsOptions } from "./conversion.js";
export { InvalidToolCallError } from "./conversion.js";
export type {
  GeminiCliBeforeToolInput,
  GeminiCliBeforeToolOutput,
  GeminiCliDecision,
  GeminiCliMcpContext,
  GeminiCliPayloadResult,
} from "./gemini-cli-hook.js";
export {
  GEMINI_MCP_TOOL,
  geminiCliAnswer,
  geminiCliCalls,
  parseGeminiCliPayload,
} from "./gemini-cli-hook.js";
export { projectReadings } from "./hook-payload.js";
export type { JsonObject, JsonValue } from "./json-data.js";
export { MAX_ARGUMENT_DEPTH } from "./json-data.js";
export type {
  McpCallToolParams,
  McpCallToolRequest,
  McpCallToolRequestOptions,
  McpCallToolResponse,
  McpCallToolResult,
  McpListToolsResult,
  McpRequestId,
  McpTextContent,
  McpTool,
} from "./mcp.js";
export {
  callIdFromRequestId,
  fromMcpCallToolRequest,
  toMcpCallToolRequest,
  toMcpCallToolResponse,
  toMcpCallToolResult,
  toMcpListToolsResult,
  toMcpTools,
} from "./mcp.js";
export type {
  OpenAIAssistantMessage,
  OpenAIChatTool,
  OpenAIChatToolCall,
  OpenAIFunctionDefinition,
  OpenAIResponsesFunctionCall,
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesFunctionTool,
  OpenAIToolMessage,
} from "./openai.js";
export {
  fromOpenAIResponsesOutput,
  fromOpenAIToolCalls,
  toOpenAIAssistantMessage,
  toOpenAIResponsesFunctionCalls,
  toOpenAIResponsesOutput,
  toOpenAIResponsesTools,
  toOpenAIToolMessage,
  toOpenAITools,
} from "./openai.js";
export type { ReadToolSpec, ReadToolSpecsResult, SkippedToolSpec, ToolHint } from "./read-tool-specs.js";
export { readAnthropicToolSpecs, readMcpToolSpecs, readOpenAIToolSpecs } from "./read-tool-specs.js";
export type { CopiedSpec, SpecSource } from "./spec-source.js";
export { InvalidToolSpecError, readSpecs } from "./spec-source.js";
