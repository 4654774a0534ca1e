// Paths as received, matched against compiled globs (glob.ts) conservatively across platforms: one list of
// globs (`matchPathGlobs`), or many globs together, each answered as that list of one would be (`GlobSet`).

import { foldString } from "./case-fold.js";
import { CompiledGlob, type Glob, rootedPath } from "./glob.js";
import { type PathReading, PathReadMemo, readingText, readPath } from "./path.js";
import { RegexSet } from "./regex/index.js";

/** The answer of {@link matchPathGlobs}: `possible` is always true when `certain` is. */
export interface PathGlobMatch {
  /** Every platform reads the path so that some glob matches it. */
  readonly certain: boolean;
  /** Some platform's reading of the path, compared with or without case, may match some glob. */
  readonly possible: boolean;
}

const CERTAIN: PathGlobMatch = Object.freeze({ certain: true, possible: true });
const POSSIBLE: PathGlobMatch = Object.freeze({ certain: false, possible: true });
const NONE: PathGlobMatch = Object.freeze({ certain: false, possible: false });

/**
 * Matches a path as received (not yet normalised) against globs, conservatively across platforms
 * (DESIGN.md section 4.5): `certain` only for a plain relative POSIX path ({@link readPath}) that some glob
 * matches exactly; `possible` when any reading — POSIX or Windows, NFC or NFD, a short name as any name,
 * compared exactly or with Unicode simple case folding — may match, or when the path may name any file.
 *
 * @param globs - compiled globs; the path matches when one of them does.
 * @param path - the path as the tool received it.
 * @param paths - the last path read by the rules of the same policy, when they share one; absent, the path is
 *   read afresh.
 */
export function matchPathGlobs(globs: readonly Glob[], path: string, paths?: PathReadMemo): PathGlobMatch {
  const read = paths === undefined ? readPath(path) : paths.read(path);
  if (read.anywhere) return POSSIBLE;
  if (read.plain) {
    const text = readingText(read.readings[0] as PathReading);
    for (const glob of globs) if (glob.test(text)) return CERTAIN;
  }
  for (const reading of read.readings) {
    if (reading.segments.includes(null)) {
      const template: (string | null)[] = reading.absolute ? ["/"] : [];
      reading.segments.forEach((segment, i) => {
        if (i > 0) template.push("/");
        template.push(segment);
      });
      for (const glob of globs) if (glob.mayMatchTemplate(template)) return POSSIBLE;
      continue;
    }
    const text = readingText(reading);
    const folded = foldString(text);
    for (const glob of globs) if (glob.mayMatch(text, folded)) return POSSIBLE;
  }
  return NONE;
}

/**
 * Many globs matched together, each answered as `matchPathGlobs([glob], path)` would: the path's readings are
 * made once, and each reading's text runs once through one automaton for every glob's exact pattern and, when
 * needed, once through one for their case-folded patterns (`regex/set.ts`). A glob spelt differently in NFC
 * or in full case folding (rare) is matched on its own.
 */
export class GlobSet {
  /** The globs matched in the set, by index: compiled here and spelt alike in NFC. */
  private readonly members: readonly number[];
  /** The globs matched on their own (spelt differently in NFC, or not compiled here). */
  private readonly solo: readonly number[];
  private patternSet: RegexSet | undefined;
  private readonly answers: Uint8Array;
  private hits: number[] = [];

  /**
   * @param globs - the globs, each answered on its own.
   * @param paths - the last path read by the rules of the same policy (they share one).
   */
  constructor(
    readonly globs: readonly Glob[],
    private readonly paths: PathReadMemo = new PathReadMemo(),
  ) {
    const members: number[] = [];
    const solo: number[] = [];
    globs.forEach((g, i) => {
      (g instanceof CompiledGlob && g.nfc === undefined && g.full === undefined ? members : solo).push(i);
    });
    this.members = members;
    this.solo = solo;
    this.answers = new Uint8Array(globs.length);
  }

  /** Every member's exact pattern (index k of `members`) and its case-folded pattern (m + k), in one set. */
  private patterns(): RegexSet {
    this.patternSet ??= this.buildPatterns();
    return this.patternSet;
  }

  private buildPatterns(): RegexSet {
    const members = this.members.map((i) => this.globs[i] as CompiledGlob);
    return new RegexSet([...members.map((g) => g.exact), ...members.map((g) => g.ignoringCase())], false);
  }

  /** Gives glob `index` its answer unless it has one: the first answer found stands. */
  private set(index: number, answer: 1 | 2): void {
    if (this.answers[index] !== 0) return;
    this.answers[index] = answer;
    this.hits.push(index);
  }

  /**
   * Per glob: 1 when `matchPathGlobs([glob], path)` is certain, 2 when it is only possible, 0 otherwise; `hits`
   * lists the globs whose answer is not 0. Both are reused by the next call: read them before that.
   */
  match(path: string): { readonly answers: Uint8Array; readonly hits: readonly number[] } {
    const { answers, members, globs } = this;
    for (const index of this.hits) answers[index] = 0;
    // A fresh list costs less than truncating the old one.
    this.hits = [];
    const read = this.paths.read(path);
    if (read.anywhere) {
      answers.fill(2);
      this.hits = globs.map((_, i) => i);
      return { answers, hits: this.hits };
    }
    // Globs matched on their own: exactly matchPathGlobs.
    for (const i of this.solo) {
      const m = matchPathGlobs([globs[i] as Glob], path, this.paths);
      if (m.possible) this.set(i, m.certain ? 1 : 2);
    }
    const m = members.length;
    // The set's hits come in ascending order: a member's exact hit (k) before its case-folded one (m + k).
    if (read.plain) {
      // One reading, every platform's: an exact hit is certain, a case-folded hit only possible.
      for (const hit of this.patterns().match(rootedPath(this.paths.text(read, 0))).hits) {
        if (hit < m) this.set(members[hit] as number, 1);
        else this.set(members[hit - m] as number, 2);
      }
      return { answers, hits: this.hits };
    }
    for (let r = 0; r < read.readings.length; r++) {
      const reading = read.readings[r] as PathReading;
      if (reading.segments.includes(null)) {
        const template: (string | null)[] = reading.absolute ? ["/"] : [];
        reading.segments.forEach((segment, i) => {
          if (i > 0) template.push("/");
          template.push(segment);
        });
        for (const i of members) if ((globs[i] as Glob).mayMatchTemplate(template)) this.set(i, 2);
        continue;
      }
      // Every reading of a path that is not plain gives at most a maybe, exact or case-folded alike.
      for (const hit of this.patterns().match(rootedPath(this.paths.text(read, r))).hits) {
        this.set(members[hit < m ? hit : hit - m] as number, 2);
      }
    }
    return { answers, hits: this.hits };
  }
}
