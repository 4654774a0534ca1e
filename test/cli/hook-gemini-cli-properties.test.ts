/**
 * Properties of `toolgate hook gemini-cli`, run in-process (runHookGeminiCli with stdin and stdout replaced)
 * against the Gemini CLI pack's starting policy.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runHookGeminiCli } from "../../src/cli/hook.js";
import { expectUnreadable, refusedOutright } from "./hook-fixtures.js";

const CONFIG = "policies/packs/gemini-cli/toolgate.config.yaml";
const PACK = [
  "run_shell_command",
  "read_file",
  "write_file",
  "replace",
  "glob",
  "grep_search",
  "list_directory",
  "read_many_files",
  "web_fetch",
  "google_web_search",
  "write_todos",
];

type Choice = "ask" | "deny";

function hook(payload: unknown, unreadable: Choice = "ask", ask: Choice = "ask") {
  let out = "";
  let err = "";
  const code = runHookGeminiCli(
    { config: CONFIG, unreadable, ask },
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
  const answer = JSON.parse(out) as { decision: string; reason: string };
  return { code, decision: code === 0 ? answer.decision : "blocked", answer, err };
}

const payload = (tool_name: string, tool_input: unknown, extra: Record<string, unknown> = {}) => ({
  session_id: "s",
  transcript_path: "/home/dev/.gemini/tmp/h/chats/session.json",
  cwd: "/home/dev/project",
  hook_event_name: "BeforeTool",
  timestamp: "2026-12-02T10:15:42.118Z",
  tool_name,
  tool_input,
  ...extra,
});

const choice = fc.constantFrom("ask", "deny") as fc.Arbitrary<Choice>;
const input = fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });

describe("toolgate hook gemini-cli: what it cannot read is never allowed", () => {
  it("property: a pack tool's input with a field the pack does not declare gets --unreadable, never allow", () => {
    fc.assert(
      fc.property(fc.constantFrom(...PACK), input, choice, (tool, args, unreadable) => {
        const call = { ...args, zz_not_in_the_pack: 1 };
        expectUnreadable(hook(payload(tool, call), unreadable), unreadable, call);
      }),
      { numRuns: 60, examples: [["run_shell_command", JSON.parse('{"a":{"__proto__":""}}'), "ask"]] },
    );
  });

  it("property: a tool outside the pack that does not look like MCP gets --unreadable whatever its input", () => {
    fc.assert(
      fc.property(
        fc
          .stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,20}$/)
          .filter((n) => !PACK.includes(n) && n !== "MCP" && !n.startsWith("mcp_") && !n.includes("__")),
        input,
        (tool, args) => {
          expectUnreadable(hook(payload(tool, args)), "ask", args);
          expectUnreadable(hook(payload(tool, args), "deny"), "deny", args);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("property: every MCP tool call (mcp_ name, SERVER__TOOL name or mcp_context) is asked, never allowed", () => {
    const server = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/);
    const tool = fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/);
    fc.assert(
      fc.property(server, tool, fc.constantFrom("mcp", "legacy", "context"), input, (s, t, form, args) => {
        const name = form === "legacy" ? `${s}__${t}` : `mcp_${s}_${t}`;
        const extra = form === "context" ? { mcp_context: { server_name: s, tool_name: t } } : {};
        const { code, decision, answer } = hook(payload(name, args, extra));
        if (refusedOutright(args)) {
          expect(code).toBe(2);
          expect(decision).toBe("blocked");
          return;
        }
        expect(code).toBe(0);
        expect(decision).toBe("ask");
        expect(answer.reason).toContain("otherwise:MCP");
      }),
      { numRuns: 40 },
    );
  });

  it("property: with --ask deny no answer is ask, and an ask becomes a deny that says approval is needed", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PACK, "mcp_github_create_issue", "activate_skill"),
        input,
        choice,
        (tool, args, unreadable) => {
          const asked = hook(payload(tool, args), unreadable, "ask");
          const denied = hook(payload(tool, args), unreadable, "deny");
          expect(denied.code).toBe(asked.code);
          expect(denied.decision).not.toBe("ask");
          if (asked.decision === "ask") {
            expect(denied.decision).toBe("deny");
            expect(denied.answer.reason).toContain("needs a person's approval");
          } else {
            expect(denied.answer).toEqual(asked.answer);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("property: stdin that is not a BeforeTool payload blocks (exit 2) and stdout says deny, whatever it is", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
          input.map((args) =>
            JSON.stringify({ ...payload("read_file", args), hook_event_name: "AfterTool" }),
          ),
        ),
        (text) => {
          const { code, decision, answer, err } = hook(text);
          expect(code).toBe(2);
          expect(decision).toBe("blocked");
          expect(answer.decision).toBe("deny");
          expect(err).toContain("the tool call is blocked");
        },
      ),
      { numRuns: 60 },
    );
  });
});
