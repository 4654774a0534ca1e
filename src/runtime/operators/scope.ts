/**
 * What the conditions of one policy share while they are compiled: the `command` prefixes of each field go
 * into one set, so that a command string is compared with all of them in one walk per decision.
 */
import { CommandPrefixSet } from "../match/shell.js";

export class ConditionScope {
  readonly #commandSets = new Map<string, CommandPrefixSet>();

  /** The prefix set of a field (its dotted path), made on first need. */
  commandSet(field: string): CommandPrefixSet {
    let set = this.#commandSets.get(field);
    if (set === undefined) {
      set = new CommandPrefixSet();
      this.#commandSets.set(field, set);
    }
    return set;
  }
}
