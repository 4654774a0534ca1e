/**
 * `command`: a shell command whose simple commands each start with one of these command prefixes, read the way
 * a shell reads it; whatever the reader cannot be sure of is a maybe.
 */
import { type CommandPrefix, type CommandPrefixSpec, parseCommandPrefixSpec } from "../match/shell.js";
import { FALSE, TRUE, UNKNOWN } from "../truth.js";
import { defineOperator, present } from "./operator.js";

export const commandOperator = defineOperator<readonly CommandPrefixSpec[], "command">({
  name: "command",
  description:
    'A shell command whose simple commands start with one of these command prefixes. A prefix ending in "$" is exact: the command must end there. The object form { prefix, options } also limits the options (words starting with "-") that may follow.',
  valueTypes: ["array"],
  reads: { types: ["string"], needs: "a string field" },
  lengthBound: true,
  invalidCode: "invalid-command",
  compile: (entries, context) => {
    const prefixes: CommandPrefix[] = [];
    entries.forEach((entry, i) => {
      const read = parseCommandPrefixSpec(entry);
      if (read.ok) prefixes.push(read.prefix);
      else context.problem(read.message, [i, ...(read.at ?? [])]);
    });
    // The same answers as matchCommand(value, prefixes), from the field's one walk over the string.
    const set = context.scope.commandSet(context.field);
    const { from, to } = set.add(prefixes);
    return present((value) => {
      if (typeof value !== "string") return UNKNOWN;
      const m = set.match(value, from, to);
      return m.certain ? TRUE : m.possible ? UNKNOWN : FALSE;
    });
  },
});
