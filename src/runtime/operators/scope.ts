/**
 * What the conditions of one policy share while they are compiled: the `command` prefixes of each field go
 * into one set, so that a command string is compared with all of them in one walk per decision; and the last
 * path and command string their rules read, so that each is read once per decision. The memos belong to the
 * policy: no two policies (or controllers) share one.
 */
import { PathReadMemo } from "../match/path.js";
import { CommandPrefixSet, ShellReadMemo } from "../match/shell.js";

export class ConditionScope {
  readonly #commandSets = new Map<string, CommandPrefixSet>();
  /** The last path that `glob` and `path_prefix` rules read, with its readings and normal form. */
  readonly paths = new PathReadMemo();
  /** The last command string that `command` rules read, with its readings. */
  readonly shell = new ShellReadMemo();

  /** The prefix set of a field (its dotted path), made on first need. */
  commandSet(field: string): CommandPrefixSet {
    let set = this.#commandSets.get(field);
    if (set === undefined) {
      set = new CommandPrefixSet(this.shell);
      this.#commandSets.set(field, set);
    }
    return set;
  }
}
