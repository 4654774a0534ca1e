/** A `reasons` entry gives the reason of a set entry of the same file, so that tool must be listed there. */

import { stageDiagnosticMeta } from "../../diagnostics/diagnostic-table.js";
import { childPointer } from "../parsed-file.js";
import { definePolicyCheck } from "./policy-check.js";
import { rawPolicy } from "./policy-facts.js";

export const reasonWithoutEntryCheck = definePolicyCheck({
  // A reason without its set entry breaks the file's shape: it reports the schema stage's code.
  meta: stageDiagnosticMeta("config-schema"),
  name: "every reason belongs to a set entry of its file",
  run: (facts, report) => {
    for (const layer of facts.layers) {
      const policy = rawPolicy(layer);
      const listed = facts.listedInFile.get(layer);
      for (const tool of Object.keys(policy.reasons ?? {})) {
        if (!facts.declared.has(tool) || listed?.has(tool)) continue;
        report.at(
          layer.parsed,
          childPointer("/reasons", tool),
          Object.hasOwn(policy.otherwise ?? {}, tool)
            ? `reasons gives a reason for "${tool}", but this file lists it in none of allow, ask or deny; for its fallback write otherwise: { ${tool}: { decision, reason } }`
            : `reasons gives a reason for "${tool}", but this file lists it in none of allow, ask or deny; list it or move the reason into a rule`,
          "key",
        );
      }
    }
  },
});
