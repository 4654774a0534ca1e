/**
 * The Claude Code tool pack as the import sees it (policies/packs/claude-code/tools.yaml): its tools, in the
 * order the policy lists their fallbacks, and the scalar argument fields that `Tool(param:value)` rules may
 * match.
 */

/** The tools of the pack, in the order the policy lists their fallbacks. */
export const PACK_TOOLS = [
  "Bash",
  "Read",
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
  "Glob",
  "Grep",
  "WebFetch",
  "WebSearch",
  "Agent",
  "MCP",
] as const;
/** Argument fields of the pack's tools whose scalar values `Tool(param:value)` rules may match. */
export const PARAM_FIELDS: Readonly<
  Record<string, Readonly<Record<string, "string" | "number" | "boolean">>>
> = {
  Bash: {
    description: "string",
    timeout: "number",
    run_in_background: "boolean",
    dangerouslyDisableSandbox: "boolean",
  },
  Read: { offset: "number", limit: "number", pages: "string", allow_large: "boolean" },
  Write: {},
  Edit: { replace_all: "boolean" },
  MultiEdit: {},
  NotebookEdit: { cell_id: "string", cell_type: "string", edit_mode: "string" },
  Glob: { pattern: "string" },
  Grep: { pattern: "string", glob: "string", type: "string", output_mode: "string", multiline: "boolean" },
  WebFetch: { prompt: "string" },
  WebSearch: { query: "string" },
  Agent: {
    subagent_type: "string",
    model: "string",
    effort: "string",
    run_in_background: "boolean",
    name: "string",
    mode: "string",
    isolation: "string",
  },
};
