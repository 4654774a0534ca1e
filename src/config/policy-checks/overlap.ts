/** Within one policy file, a tool stands in one of allow, ask and deny, once. */
import { definePolicyCheck } from "./policy-check.js";

export const overlapCheck = definePolicyCheck({
  meta: {
    code: "overlap",
    severity: "error",
    description: "A tool is listed in more than one of allow, ask and deny in one policy file.",
    meaning: "In one policy file a tool is in two of allow/ask/deny, or twice in one.",
    fix: "Keep it in one list.",
  },
  name: "a tool stands in one set of a file, once",
  run: (facts, report) => {
    for (const { parsed, pointer, tool, action, line, earlier } of facts.overlaps) {
      report.at(
        parsed,
        pointer,
        earlier.action === action
          ? `tool "${tool}" is listed twice in ${action} (lines ${earlier.line} and ${line}); list it once`
          : `tool "${tool}" is in both ${earlier.action} (line ${earlier.line}) and ${action} (line ${line}); keep it in one`,
      );
    }
  },
});
