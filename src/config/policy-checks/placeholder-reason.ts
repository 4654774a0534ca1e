/**
 * A reason is what the person approving a call, the model and the audit log read: a placeholder (`TODO`,
 * `reason`, `tbd`, `xxx`, `fixme`, or one with no word in it) tells them nothing.
 */

import { childPointer } from "../parsed-file.js";
import { definePolicyCheck } from "./policy-check.js";
import { rawPolicy } from "./policy-facts.js";

/** A marker that leaves the text to be written later, whatever follows it ("TODO: explain"). */
const MARKER = /^(?:todo|tbd|tba|fixme|xxx+)\b/i;
/** Whole texts that stand where a reason should be. */
const PLACEHOLDERS: ReadonlySet<string> = new Set(["reason", "placeholder", "none", "n/a", "na"]);

/** True when a reason says nothing: a marker, a stock word, or no letter or digit at all. */
export function isPlaceholderReason(reason: string): boolean {
  const text = reason.trim();
  if (MARKER.test(text)) return true;
  if (!/[\p{L}\p{N}]/u.test(text)) return true;
  return PLACEHOLDERS.has(
    text
      .toLowerCase()
      .replace(/[\s.!?:;,…_-]+$/u, "")
      .replace(/\s+/g, " "),
  );
}

export const placeholderReasonCheck = definePolicyCheck({
  meta: {
    code: "placeholder-reason",
    severity: "warning",
    description: "A reason is a placeholder (TODO, tbd, fixme, xxx, `reason`, or no word at all).",
    meaning:
      "A reason in `reasons`, a rule or an `otherwise` entry is a placeholder: a marker such as `TODO`, `TBD`, `FIXME` or `XXX`, a stock word such as `reason` or `placeholder`, or text with no letter or digit. The reason is what the person approving a call, the model and the audit log read.",
    fix: "Write why the tool is allowed, asked about or denied, in a sentence the person approving a call can act on.",
  },
  name: "reasons say why",
  run: (facts, report) => {
    for (const layer of facts.layers) {
      const policy = rawPolicy(layer);
      const check = (pointer: string, reason: string | undefined) => {
        if (reason === undefined || !isPlaceholderReason(reason)) return;
        report.at(
          layer.parsed,
          pointer,
          `reason ${JSON.stringify(reason)} is a placeholder; write why, in words the person approving a call, the model and the audit log can use (for example "patches change the workspace, so a person confirms each one")`,
        );
      };
      for (const [tool, reason] of Object.entries(policy.reasons ?? {}))
        check(childPointer("/reasons", tool), reason);
      for (const [tool, value] of Object.entries(policy.otherwise ?? {})) {
        if (typeof value === "object")
          check(childPointer(childPointer("/otherwise", tool), "reason"), value.reason);
      }
      (policy.rules ?? []).forEach((rule, index) => {
        check(`/rules/${index}/reason`, rule.reason);
      });
    }
  },
});
