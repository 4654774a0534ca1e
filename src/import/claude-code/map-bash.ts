/**
 * Mapping Claude Code's `Bash(…)` rules: a prefix or exact command becomes toolgate's `command` operator;
 * what cannot be carried exactly is narrowed (allow) or widened to its leading plain words (deny, ask).
 */
import { commandPrefix, isPlainWord } from "../command-prefix.js";
import { type Converted, fallback, type RuleList } from "./converted.js";

/** What every carried Bash allow differs in from Claude Code's. */
const BASH_ALLOW_NOTE =
  "allowed only where every shell reads the command alike (toolgate's safe subset: no $, globs, ~, other redirections): stricter; " +
  "compound commands (a && b, a | b, a; b): each simple command is decided on its own and the strictest decision wins, as Claude Code decides them: the same; " +
  "no redirection at all (no < or > anywhere, even quoted: stricter; not even >/dev/null or 2>&1, which toolgate's safe subset would allow), as Claude Code prompts for a command with one: the same or stricter";

/**
 * The `command` operators of a Bash rule: an allow also refuses any `<` or `>` in the command (a redirection, or
 * one quoted: stricter), since toolgate's safe subset allows `>/dev/null` and `2>&1` where Claude Code prompts.
 */
function bashCommand(prefix: string, list: RuleList): Record<string, unknown> {
  return list === "allow" ? { command: [prefix], not: { regex: "[<>]" } } : { command: [prefix] };
}

/** What every carried Bash deny or ask differs in from Claude Code's. */
const BASH_DENY_NOTE =
  "toolgate's command match for deny and ask also finds the command in every part of a compound command, behind any wrapper (timeout, env, xargs, a shell's -c) and in every shell's reading: at least as wide, so stricter";
/** Converts a `Bash(specifier)` rule. */
export function convertBash(spec: string, list: RuleList): Converted {
  const text = spec.trim();
  // `npm run:*` and `npm run *` are the same prefix rule (word boundary); no `*` is an exact command.
  let prefix: string | undefined;
  let exact = false;
  if (!text.includes("*")) {
    exact = true;
    prefix = text;
  } else if (/^[^*]+:\*$/.test(text)) prefix = text.slice(0, -2);
  else if (/^[^*]+ \*$/.test(text)) prefix = text.slice(0, -2);
  if (prefix !== undefined) {
    const words = prefix.trim().split(/\s+/);
    const carried = commandPrefix(words, exact);
    if (carried !== undefined) {
      return {
        rules: [{ tools: ["Bash"], when: { command: bashCommand(carried, list) } }],
        carried: "stricter",
        note: list === "allow" ? BASH_ALLOW_NOTE : BASH_DENY_NOTE,
      };
    }
  }
  // Anything else: a wildcard in the middle or at the start, a prefix without a word boundary, words with
  // quotes or shell operators. Deny and ask keep the leading plain words before any of that; allow is dropped,
  // or narrowed to the word-bounded prefix when only the boundary is missing (`ls*` as `ls *`).
  const head = text.split("*")[0] as string;
  if (list === "allow") {
    const bare = /^([^*]+)\*$/.exec(text);
    const narrowed =
      bare === null ? undefined : commandPrefix((bare[1] as string).trim().split(/\s+/), false);
    if (narrowed !== undefined && !/\s$/.test(bare?.[1] as string)) {
      return {
        rules: [{ tools: ["Bash"], when: { command: bashCommand(narrowed, list) } }],
        carried: "stricter",
        note: `carried as the word-bounded prefix "${narrowed}" (Claude Code would also allow longer first words): stricter; ${BASH_ALLOW_NOTE}`,
      };
    }
    return fallback(list, ["Bash"], "toolgate cannot allow this command pattern with certainty");
  }
  const words =
    head.endsWith(" ") || !text.includes("*")
      ? head.trim().split(/\s+/)
      : head.trim().split(/\s+/).slice(0, -1);
  const plain: string[] = [];
  for (const [i, w] of words.entries()) {
    if (w === "" || !isPlainWord(w, i === 0)) break;
    plain.push(w);
  }
  const carried = commandPrefix(plain, false);
  if (carried === undefined)
    return fallback(list, ["Bash"], "the pattern has no leading plain words toolgate can match");
  return {
    rules: [{ tools: ["Bash"], when: { command: { command: [carried] } } }],
    carried: "stricter",
    note: `carried as every command that may run "${carried}": wider, so stricter; ${BASH_DENY_NOTE}`,
  };
}
