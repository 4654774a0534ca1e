/**
 * What the conditions of one policy share while they are compiled: the `command` prefixes of each field go
 * into one set, so that a command string is compared with all of them in one walk per decision; and the last
 * path and command string their rules read, so that each is read once per decision. The memos belong to the
 * policy: no two policies (or controllers) share one.
 */
import { PathReadMemo } from "../match/path.js";
import type { RegexSet } from "../match/regex/index.js";
import { CommandPrefixSet, ShellReadMemo } from "../match/shell.js";

/**
 * Where a `regex` operator may find its answer already computed: a pattern set of the same field holding the
 * same regex (compiled-statements.ts fills it on the tool's first call); `set` undefined until then.
 */
export interface SharedRegex {
  set: RegexSet | undefined;
  index: number;
}

export class ConditionScope {
  readonly #commandSets = new Map<string, CommandPrefixSet>();
  readonly #sharedRegexes = new Map<string, SharedRegex>();
  /** The last path that `glob` and `path_prefix` rules read, with its readings and normal form. */
  readonly paths = new PathReadMemo();
  /** The last command string that `command` rules read, with its readings. */
  readonly shell = new ShellReadMemo();

  /**
   * The slot where a field's regex (its path as written, and {@link regexKey} of the regex) finds a pattern set
   * that answers it: the same slot for every operator and set of that field and regex. Any set holding the
   * regex answers it exactly (its bounded answers are `testBounded`'s), so the last one registered is kept.
   */
  sharedRegex(field: string, key: string): SharedRegex {
    const name = `${field}\u0000${key}`;
    let slot = this.#sharedRegexes.get(name);
    if (slot === undefined) {
      slot = { set: undefined, index: 0 };
      this.#sharedRegexes.set(name, slot);
    }
    return slot;
  }

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
