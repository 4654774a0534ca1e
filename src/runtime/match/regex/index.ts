/**
 * A linear-time regular-expression engine for policy `regex` rules and input-schema `pattern`s.
 *
 * Patterns compile to a Thompson NFA and run as a Pike-VM simulation: every input position is visited once and
 * every instruction at most once per position, so `test` costs O(input length × program size) whatever the
 * pattern. Nothing backtracks, so no pattern can make a call hang.
 *
 * The syntax is a subset of JavaScript's: everything that describes a regular language (literals, escapes,
 * classes, `.`, anchors, `\b`, groups, alternation, greedy and lazy quantifiers). Constructs that need
 * backtracking (backreferences, lookaround) are refused with a message saying so.
 *
 * Where this engine knowingly differs from `RegExp`:
 * - Without flag `u` input is read as UTF-16 code units, as JavaScript does; with `u` as code points.
 * - Syntax is checked as strictly as JavaScript's `u` mode in both modes (no Annex B leniency: a lone `{`,
 *   `}` or `]`, an octal escape or `\a` is an error), except that any ASCII punctuation may be escaped and
 *   `\u{...}` is accepted in both modes.
 * - Flag `i` uses Unicode simple case folding (`../case-fold.ts`, as `RegExp` with `iu`) in both
 *   modes, so without `u` the Kelvin sign `K` matches `k` (JavaScript matches it only with `u`).
 *   `\b` and `\B` look at ASCII word characters only, with or without `i`.
 *
 * The folder, one part a file: `char-set.ts` (code point ranges and compiled sets), `syntax.ts` (syntax tree and
 * parser), `program.ts` (the Thompson program and its emitter), `vm.ts` (Pike VM, lazy DFA, work bound),
 * `compile.ts` (one pattern compiled into a `LinearRegex`) and `set.ts` (many patterns as one automaton). This
 * module names what the rest of toolgate may import from it.
 */

export { type CompileRegexResult, compileRegex, type LinearRegex } from "./compile.js";
export { MAX_REGEX_PROGRAM_SIZE } from "./program.js";
export { MAX_SET_SIZE, MAX_SET_STATES, RegexSet, type SetAnswer } from "./set.js";
export { parseRegexTree, type RegexNode } from "./syntax.js";
export { REGEX_WORK_BOUND } from "./vm.js";
