/**
 * Every argument a rule on an alias's canonical tool reads is mapped by the alias: a call read through an
 * alias holds only the arguments it maps, so a rule reading another one would never see it there.
 */

import { describeAlias } from "../../runtime/tool-aliases.js";
import { definePolicyCheck } from "./policy-check.js";

export const aliasUnmappedArgumentCheck = definePolicyCheck({
  meta: {
    code: "alias-unmapped-argument",
    severity: "error",
    description: "A rule on an alias's canonical tool reads an argument that the alias does not map.",
    meaning:
      "A rule names the canonical tool of a tool alias and its `when` reads an argument (a field path's first name, nested operators included) that the alias's `arguments` does not map, so calls read through the alias never carry it.",
    fix: "Map the argument in the alias (from the host's argument, a path, a fixed value, …), write `{ absent: true }` when the host has no such argument, or change the rule.",
  },
  name: "rules on an aliased tool read only arguments the alias maps",
  run: (facts, report) => {
    for (const { alias, parsed, pointer } of facts.aliases) {
      const mapped = new Set(alias.arguments.map(([target]) => target));
      for (const statement of facts.statements) {
        if (statement.kind !== "rule" || statement.when === undefined) continue;
        if (!statement.tools.includes(alias.tool)) continue;
        const read = new Set(Object.keys(statement.when).map((field) => field.split(".")[0] as string));
        for (const argument of read) {
          if (mapped.has(argument)) continue;
          report.at(
            parsed,
            pointer,
            `rule "${statement.id}" reads argument "${argument}" of tool "${alias.tool}", which the alias ${describeAlias(alias)} does not map; map it under arguments (${argument}: HOST_ARGUMENT, or another source; { absent: true } when the host has no such argument), or the rule never sees it in calls read through this alias`,
          );
        }
      }
    }
  },
});
