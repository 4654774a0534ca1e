/** Every declared tool has a policy statement; one without is always denied, which is rarely what was meant. */
import { definePolicyCheck } from "./policy-check.js";

export const unlistedToolCheck = definePolicyCheck({
  meta: {
    code: "unlisted-tool",
    severity: "warning",
    description: "A declared tool has no policy statement, so it is always denied.",
    meaning: "A declared tool has no policy statement, so it is always denied.",
    fix: "Add it to allow, ask or deny (deny is fine: it says you meant it).",
  },
  name: "every tool has a statement",
  run: (facts, report) => {
    // With a policy file unreadable, "no statement" may be false: its own diagnostic says what to fix first.
    if (facts.options.policyComplete === false) return;
    const mentioned = new Set(facts.statements.flatMap((s) => s.tools));
    for (const tool of facts.tools) {
      if (mentioned.has(tool.name)) continue;
      report.push({
        code: "unlisted-tool",
        severity: "warning",
        message: `tool "${tool.name}" has no policy statement, so it is always denied; add it to allow, ask or deny`,
        file: tool.source.file,
        line: tool.source.line,
        column: tool.source.column ?? 1,
      });
    }
  },
});
