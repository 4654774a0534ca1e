/**
 * A few strings that a pattern of the linear-time engine matches, built from its syntax tree: each
 * alternative, the fewest repetitions and one more, a readable character of each class. Used to build
 * witness calls for `regex` rules and for input-schema `pattern`s; every string returned has been checked
 * against the compiled pattern.
 */
import { compileRegex, parseRegexTree, type RegexNode } from "../runtime/match/regex/index.js";

/** Characters tried first for a class, so that examples stay readable. */
const PREFERRED = "a0A_-./ x~=:@,+";

function inRanges(ranges: readonly number[], c: number): boolean {
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    if (c >= (ranges[i] as number) && c <= (ranges[i + 1] as number)) return true;
  }
  return false;
}

/** Up to two members of a class, readable ones first. */
function classMembers(ranges: readonly number[], negated: boolean): string[] {
  const member = (c: number) => inRanges(ranges, c) !== negated;
  const out: string[] = [];
  for (const ch of PREFERRED) {
    if (member(ch.codePointAt(0) as number)) out.push(ch);
    if (out.length === 2) return out;
  }
  // Then lower case, digits, upper case and the rest of printable ASCII, in that order.
  for (const [from, to] of [
    [0x61, 0x7a],
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x21, 0x7e],
  ] as const) {
    for (let c = from; c <= to && out.length < 2; c++) {
      const ch = String.fromCodePoint(c);
      if (member(c) && !out.includes(ch)) out.push(ch);
    }
  }
  if (out.length === 0 && !negated && ranges.length >= 2) out.push(String.fromCodePoint(ranges[0] as number));
  return out;
}

/** The most repetitions written out: `{1000}` still gives an example, just not a long one. */
const MAX_REPEAT = 64;

function examplesOf(node: RegexNode, limit: number): string[] {
  switch (node.kind) {
    case "empty":
    case "assert":
      return [""];
    case "char":
      return [String.fromCodePoint(node.cp)];
    case "set":
      return classMembers(node.ranges, node.negated);
    case "alt": {
      const out: string[] = [];
      // The first example of every alternative before the second of any.
      const each = node.items.map((item) => examplesOf(item, limit));
      for (let round = 0; out.length < limit; round++) {
        let any = false;
        for (const list of each) {
          const value = list[round];
          if (value === undefined) continue;
          any = true;
          if (!out.includes(value)) out.push(value);
          if (out.length >= limit) break;
        }
        if (!any) break;
      }
      return out;
    }
    case "concat": {
      const parts = node.items.map((item) => examplesOf(item, limit));
      if (parts.some((p) => p.length === 0)) return [];
      const first = parts.map((p) => p[0] as string);
      const out = [first.join("")];
      // Vary one part at a time.
      for (let i = 0; i < parts.length && out.length < limit; i++) {
        for (const alternative of (parts[i] as string[]).slice(1)) {
          const value = [...first.slice(0, i), alternative, ...first.slice(i + 1)].join("");
          if (!out.includes(value)) out.push(value);
          if (out.length >= limit) break;
        }
      }
      return out;
    }
    case "repeat": {
      const child = examplesOf(node.child, limit);
      if (child.length === 0) return node.min === 0 ? [""] : [];
      const min = Math.min(node.min, MAX_REPEAT);
      const out: string[] = [];
      const one = child[0] as string;
      out.push(one.repeat(min));
      if (node.max > node.min) {
        for (const c of child) {
          const value = one.repeat(min) + c;
          if (!out.includes(value)) out.push(value);
          if (out.length >= limit) break;
        }
      }
      return out;
    }
  }
}

/**
 * Strings the pattern matches (search semantics, as `regex` rules test), at most `limit`.
 * @returns an empty list when the pattern does not compile or no example could be built.
 */
export function regexExamples(pattern: string, flags = "", limit = 8): string[] {
  const tree = parseRegexTree(pattern, flags);
  const compiled = compileRegex(pattern, flags);
  if (tree === undefined || !compiled.ok) return [];
  return examplesOf(tree, limit).filter((s) => compiled.regex.test(s));
}
