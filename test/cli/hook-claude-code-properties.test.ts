/**
 * Properties of `toolgate hook claude-code`, run in-process (runHookClaudeCode with stdin and stdout
 * replaced) against the Claude Code pack's starting policy.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runHookClaudeCode } from "../../src/cli/hook.js";
import { expectUnreadable } from "./hook-fixtures.js";

const CONFIG = "policies/packs/claude-code/toolgate.config.yaml";
const PACK = [
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
];

function hook(payload: unknown, unreadable: "ask" | "deny" = "ask") {
  let out = "";
  let err = "";
  const code = runHookClaudeCode(
    { config: CONFIG, unreadable },
    {
      readInput: () => Buffer.from(typeof payload === "string" ? payload : JSON.stringify(payload)),
      write: (t) => {
        out += t;
      },
      writeError: (t) => {
        err += t;
      },
    },
  );
  const decision =
    code === 0
      ? (JSON.parse(out) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput
          .permissionDecision
      : "blocked";
  return { code, decision, err };
}

const payload = (tool_name: string, tool_input: unknown) => ({
  session_id: "s",
  transcript_path: "/home/dev/.claude/t.jsonl",
  cwd: "/home/dev/project",
  hook_event_name: "PreToolUse",
  tool_name,
  tool_input,
  tool_use_id: "toolu_1",
});

describe("toolgate hook claude-code: what it cannot read is never allowed", () => {
  it("property: a pack tool's input with a field the pack does not declare is asked (or denied), never allowed", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PACK),
        fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
        fc.constantFrom("ask", "deny") as fc.Arbitrary<"ask" | "deny">,
        (tool, input, unreadable) => {
          const args = { ...input, zz_not_in_the_pack: 1 };
          expectUnreadable(hook(payload(tool, args), unreadable), unreadable, args);
        },
      ),
      { numRuns: 60, examples: [["Bash", JSON.parse('{"a":{"__proto__":""}}'), "ask"]] },
    );
  });

  it("property: a tool outside the pack (not mcp__) gets --unreadable whatever its input", () => {
    fc.assert(
      fc.property(
        fc
          .stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,20}$/)
          .filter((n) => !PACK.includes(n) && n !== "MCP" && !n.startsWith("mcp__")),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        (tool, input) => {
          expectUnreadable(hook(payload(tool, input)), "ask", input);
          expectUnreadable(hook(payload(tool, input), "deny"), "deny", input);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("property: stdin that is not a PreToolUse payload blocks (exit 2), whatever it is", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (text) => {
          const { code, decision } = hook(text);
          expect(code).toBe(2);
          expect(decision).toBe("blocked");
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("toolgate hook claude-code: payload facts as context", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-hook-context-"));
  writeFileSync(
    join(dir, "toolgate.config.yaml"),
    [
      `tools: [${JSON.stringify(resolve("policies/packs/claude-code/tools.yaml"))}]`,
      "policy: policy.yaml",
      "context_schema:",
      "  type: object",
      "  properties:",
      "    permission_mode: { type: string, enum: [default, plan, acceptEdits, auto, dontAsk, bypassPermissions] }",
      "    agent_type: { type: string, maxLength: 128 }",
      "  additionalProperties: false",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "policy.yaml"),
    [
      "version: 1",
      "otherwise: { Write: ask }",
      "rules:",
      "  - id: explorers-do-not-write",
      "    tools: [Write]",
      "    decision: deny",
      "    context: { agent_type: { equals: Explore } }",
      "    reason: the Explore subagent only reads",
      "",
    ].join("\n"),
  );
  const run = (extra: Record<string, unknown>) => {
    let out = "";
    const code = runHookClaudeCode(
      { config: join(dir, "toolgate.config.yaml"), unreadable: "ask" },
      {
        readInput: () =>
          Buffer.from(
            JSON.stringify({
              ...payload("Write", { file_path: "/home/dev/project/a.ts", content: "x" }),
              ...extra,
            }),
          ),
        write: (t) => {
          out += t;
        },
        writeError: () => {},
      },
    );
    expect(code).toBe(0);
    return JSON.parse(out).hookSpecificOutput as {
      permissionDecision: string;
      permissionDecisionReason: string;
    };
  };

  it("passes agent_type and permission_mode when the context_schema declares them", () => {
    expect(run({ agent_type: "Explore", permission_mode: "default" }).permissionDecision).toBe("deny");
    expect(run({ agent_type: "general-purpose" }).permissionDecision).toBe("ask");
    expect(run({}).permissionDecision).toBe("ask");
  });

  it("a fact that fails the context_schema makes the call unreadable: asked, never allowed", () => {
    const answer = run({ permission_mode: "somethingNew" });
    expect(answer.permissionDecision).toBe("ask");
    expect(answer.permissionDecisionReason).toContain("cannot read this call");
  });
});
