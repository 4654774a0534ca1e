import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createController, type Diagnostic, loadPolicy, MemoryAuditSink, watchPolicy } from "toolgate";
import { describe, expect, it } from "vitest";
import { writeTree } from "../cli/cli-helpers.js";

const tools = [
  "tools:",
  "  - name: write_note",
  "    description: Write a note.",
  "    input_schema:",
  "      type: object",
  "      properties: { text: { type: string } }",
  "      required: [text]",
  "      additionalProperties: false",
  "",
].join("\n");

function until(check: () => boolean, ms = 5_000): Promise<void> {
  const start = Date.now();
  return new Promise((done, fail) => {
    const tick = () => {
      if (check()) done();
      else if (Date.now() - start > ms) fail(new Error("timed out"));
      else setTimeout(tick, 20);
    };
    tick();
  });
}

describe("watchPolicy and safe reload", () => {
  it("reloads on a good change, keeps the old policy on a bad one, and re-checks pending approvals", async () => {
    const dir = writeTree({
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "tools.yaml": tools,
      "policy.yaml": "version: 1\nask: [write_note]\n",
    });
    const bundle = await loadPolicy({ cwd: dir });
    const audit = new MemoryAuditSink();
    let runs = 0;
    const handlers = {
      write_note: ({ text }: { text: string }) => {
        runs++;
        return `wrote ${text}`;
      },
    };
    const controller = createController({ bundle, handlers, audit, cwd: dir });
    const pending = await controller.handle({
      callId: "c1",
      toolName: "write_note",
      arguments: { text: "a" },
    });
    expect("approvalId" in pending).toBe(true);

    const reloads: string[] = [];
    const errors: (readonly Diagnostic[])[] = [];
    const watcher = watchPolicy({
      controller,
      handlers,
      cwd: dir,
      debounceMs: 20,
      onReload: (b) => reloads.push(b.fingerprint),
      onError: (d) => errors.push(d),
    });
    try {
      // A broken edit: the old policy stays in force and the diagnostics are reported.
      writeFileSync(join(dir, "policy.yaml"), "version: 1\nask: [write_notes]\n");
      await until(() => errors.length > 0);
      expect(errors[0]?.[0]).toMatchObject({ code: "unknown-tool", file: "policy.yaml", line: 2 });
      expect(controller.policy.fingerprint).toBe(bundle.fingerprint);

      // A good edit that denies the tool: the pending approval is re-checked against it.
      writeFileSync(join(dir, "policy.yaml"), "version: 1\ndeny: [write_note]\n");
      await until(() => reloads.length > 0);
      expect(controller.policy.fingerprint).not.toBe(bundle.fingerprint);
      const result = await controller.resolve({
        approvalId: (pending as { approvalId: string }).approvalId,
        approved: true,
      });
      expect(result).toEqual({
        callId: "c1",
        content: "denied by policy: tool write_note is denied by the policy (rule: deny:write_note)",
        isError: true,
      });
      expect(runs).toBe(0);
      // The audit records both fingerprints: the one that asked and the one that decided.
      const decided = audit.events.filter((e) => e.type === "policy.decided").at(-1);
      expect(decided).toMatchObject({
        fingerprint: reloads[0],
        requestFingerprint: bundle.fingerprint,
        decision: "deny",
      });
    } finally {
      watcher.close();
    }
  });
});
