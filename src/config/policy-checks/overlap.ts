/** Within one policy file, a tool stands in one of allow, ask and deny, once. */
import { diagnosticMeta } from "../../diagnostics/diagnostic-table.js";
import type { PolicyCheck } from "./policy-check.js";

export const overlapCheck: PolicyCheck = {
  meta: diagnosticMeta("overlap"),
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
};
