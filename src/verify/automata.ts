/**
 * Automata shared across one verification: fields whose operators register the same character sets get the same
 * alphabet, and over one alphabet every pattern is turned into a DFA once (the file tools of a policy share their
 * path rules, so their fields share the automata of those rules). Every path field registers the path operators of
 * the whole verification, so that all path fields meet in one alphabet.
 */
import { type Alphabet, AlphabetBuilder } from "./alphabet.js";
import { type Dfa, TooComplex } from "./dfa.js";
import { PathLanguages } from "./path-language.js";
import { RegexLanguage } from "./regex-language.js";
import { UrlLanguages } from "./url-language.js";

/**
 * Each pattern's DFA over the alphabet its own character tests cut (fewest symbols), made once per process and
 * read over any alphabet that fits the pattern ({@link overAlphabet}). Bounded: the oldest is dropped first.
 */
const OWN = new Map<string, { readonly language: RegexLanguage; readonly alphabet: Alphabet; dfa?: Dfa }>();
export const OWN_LIMIT = 512;

/** How many patterns' own automata are kept (at most {@link OWN_LIMIT}). */
export function patternsKept(): number {
  return OWN.size;
}

/**
 * A DFA read over another alphabet: each symbol of `to` moves as the symbol of `from` holding its representative.
 * Exact when every symbol of `to` lies inside one symbol of `from` (`to` is cut at least where `from` is, as
 * `RegexLanguage.fits` checks for a pattern's tests), the same automaton `toDfa` would build over `to`.
 */
export function overAlphabet(dfa: Dfa, from: Alphabet, to: Alphabet): Dfa {
  const k = to.size;
  const map = Int32Array.from(to.reps, (cp) => from.symbolOf(cp));
  const trans = new Int32Array(dfa.n * k);
  for (let q = 0; q < dfa.n; q++) {
    const row = q * dfa.k;
    for (let c = 0; c < k; c++) trans[q * k + c] = dfa.trans[row + (map[c] as number)] as number;
  }
  // The accepting flags are shared: no automaton's are changed once it is built.
  return { k, n: dfa.n, trans, accept: dfa.accept, start: dfa.start };
}

/** DFAs over one alphabet, each made once. */
export class Automata {
  readonly alphabet: Alphabet;
  readonly #cache = new Map<string, Dfa>();
  #paths: PathLanguages | undefined;
  #urls: UrlLanguages | undefined;

  constructor(alphabet: Alphabet) {
    this.alphabet = alphabet;
  }

  /**
   * The DFA of a pattern of the regex engine (its `test` semantics).
   * @throws TooComplex when the pattern does not parse or its automaton is too large.
   */
  pattern(pattern: string, flags: string): Dfa {
    const key = `re\u0000${flags}\u0000${pattern}`;
    return this.memo(key, () => {
      let own = OWN.get(key);
      if (own === undefined) {
        const language = RegexLanguage.parse(pattern, flags);
        if (language === undefined) throw new TooComplex(`pattern ${pattern} does not parse`);
        const builder = new AlphabetBuilder();
        language.addBoundaries(builder);
        own = { language, alphabet: builder.build() };
        if (OWN.size >= OWN_LIMIT) OWN.delete(OWN.keys().next().value as string);
        OWN.set(key, own);
      }
      // An alphabet not cut for the pattern's character sets would read them wrongly: never decide on that.
      if (!own.language.fits(this.alphabet))
        throw new TooComplex(`the alphabet is not cut for the character sets of ${pattern}`);
      own.dfa ??= own.language.toDfa(own.alphabet);
      return overAlphabet(own.dfa, own.alphabet, this.alphabet);
    });
  }

  /** A DFA made once under `key`. */
  memo(key: string, make: () => Dfa): Dfa {
    let dfa = this.#cache.get(key);
    if (dfa === undefined) {
      dfa = make();
      this.#cache.set(key, dfa);
    }
    return dfa;
  }

  /** The path languages over this alphabet (the alphabet must have been cut for paths). */
  paths(): PathLanguages {
    this.#paths ??= new PathLanguages(this);
    return this.#paths;
  }

  /** The URL languages over this alphabet (the alphabet must have been cut for URLs). */
  urls(): UrlLanguages {
    this.#urls ??= new UrlLanguages(this);
    return this.#urls;
  }
}

/** The automata of one verification, by alphabet. */
export class AutomataPool {
  readonly #byKey = new Map<string, Automata>();
  readonly #globs = new Set<string>();
  readonly #prefixes = new Set<string>();

  /** Adds path operators that every path field's alphabet is cut for. */
  addPathOperators(globs: Iterable<string>, prefixes: Iterable<string>): void {
    for (const g of globs) this.#globs.add(g);
    for (const p of prefixes) this.#prefixes.add(p);
  }

  /** Cuts a path field's alphabet for every path operator of the verification. */
  addPathBoundaries(builder: AlphabetBuilder, globs: readonly string[], prefixes: readonly string[]): void {
    PathLanguages.addBoundaries(
      builder,
      [...new Set([...this.#globs, ...globs])],
      [...new Set([...this.#prefixes, ...prefixes])],
    );
  }

  /** The automata over the alphabet the builder describes. */
  get(builder: AlphabetBuilder): Automata {
    const key = builder.key();
    let automata = this.#byKey.get(key);
    if (automata === undefined) {
      automata = new Automata(builder.build());
      this.#byKey.set(key, automata);
    }
    return automata;
  }
}

/** A builder for the callers that need one alphabet of their own. */
export function newBuilder(): AlphabetBuilder {
  return new AlphabetBuilder();
}
