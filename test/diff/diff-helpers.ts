import { expect } from "vitest";
import { loadPolicyResultSync } from "../../src/config/load-policy.js";
import type { DiffSide, PolicyDiff } from "../../src/diff/diff-policies.js";
import { applyMode } from "../../src/runtime/mode.js";
import { decisionController } from "../../src/testing/run-policy-tests.js";

/** Loads a side from a directory; fails the test with its diagnostics when it does not load. */
export function loadSide(cwd: string, label = cwd): DiffSide {
  const loaded = loadPolicyResultSync({ cwd });
  if (loaded.bundle === undefined) {
    throw new Error(`${cwd} does not load: ${JSON.stringify(loaded.diagnostics, null, 2)}`);
  }
  return { label, bundle: loaded.bundle, validators: loaded.validators };
}

const RANK = { allow: 0, ask: 1, deny: 2, invalid: 2 } as const;

/**
 * The oracle: every reported decision change is decided again through each side's controller (the
 * `handle` path: input boundary, prepare, context check, policy) and must give the reported actions, which
 * must differ, with the reported kind of change; a generated witness is valid on at least one side.
 */
export function expectEveryChangeFlips(diff: PolicyDiff, base: DiffSide, head: DiffSide): void {
  const before = decisionController(base.bundle, base.validators);
  const after = decisionController(head.bundle, head.validators);
  const actionOf = (controller: typeof before, tool: string, args: unknown, context: object) => {
    const r = controller.explain({ callId: "oracle", toolName: tool, arguments: args }, context as never);
    // As the controller acts (and `toolgate explain` shows): with the configuration's mode applied.
    return "callId" in r ? "invalid" : applyMode(r.decision, controller.mode).decision.action;
  };
  for (const d of diff.decisions) {
    const b = actionOf(before, d.tool, d.arguments, d.context);
    const a = actionOf(after, d.tool, d.arguments, d.context);
    expect({ tool: d.tool, arguments: d.arguments, before: b, after: a }).toEqual({
      tool: d.tool,
      arguments: d.arguments,
      before: d.before.action,
      after: d.after.action,
    });
    expect(a).not.toBe(b);
    const kind = RANK[a] < RANK[b] ? "loosened" : RANK[a] > RANK[b] ? "tightened" : "changed";
    expect(d.change).toBe(kind);
    if (d.source === "generated") expect(a !== "invalid" || b !== "invalid").toBe(true);
  }
}
