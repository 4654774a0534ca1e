/**
 * The parts of the URL languages a generated URL seldom reaches: which characters `UrlLanguages.addBoundaries`
 * makes symbols of their own (so that an operator's languages are read exactly and spelt well), operators whose
 * parts are empty, odd or do not compile, query keys with other characters than a word's, path globs whose
 * lower-case spelling reads otherwise, and the memo of one verification's languages.
 */
import { describe, expect, it } from "vitest";
import { compileUrl, type UrlSpec } from "../../src/runtime/match/url.js";
import { type Alphabet, AlphabetBuilder } from "../../src/verify/alphabet.js";
import { Automata } from "../../src/verify/automata.js";
import { accepts, type Dfa } from "../../src/verify/dfa.js";
import { UrlLanguages, type UrlOperatorLanguages } from "../../src/verify/url-language.js";

function alphabetFor(specs: readonly UrlSpec[]): Alphabet {
  const builder = new AlphabetBuilder();
  UrlLanguages.addBoundaries(builder, specs);
  return builder.build();
}

function languagesFor(specs: readonly UrlSpec[]) {
  const automata = new Automata(alphabetFor(specs));
  return { alphabet: automata.alphabet, urls: automata.urls() };
}

function runtime(spec: UrlSpec): (value: string) => number {
  const compiled = compileUrl(spec);
  if (!compiled.ok) throw new TypeError(`spec does not compile: ${JSON.stringify(compiled.problems)}`);
  return compiled.test;
}

/** The characters of `text` that are not a symbol of their own. */
function merged(alphabet: Alphabet, text: string): string[] {
  return [...text].filter((ch) => !alphabet.single(alphabet.symbolOf(ch.codePointAt(0) as number)));
}

/** Checks an operator's languages against the runtime on URLs, simple ones exactly. */
function expectRuntime(spec: UrlSpec, values: readonly string[], specs: readonly UrlSpec[] = [spec]): void {
  const { alphabet, urls } = languagesFor(specs);
  const l = urls.url(spec) as UrlOperatorLanguages;
  expect(l, JSON.stringify(spec)).toBeDefined();
  const test = runtime(spec);
  for (const value of values) {
    const symbols = alphabet.symbols(value);
    const truth = test(value);
    const label = `${value} ${JSON.stringify(spec)}`;
    if (truth === 1) expect(accepts(l.certainAnywhere, symbols), `${label} anywhere`).toBe(true);
    expect(accepts(urls.simple, symbols), `${label} simple`).toBe(true);
    expect(accepts(l.certain, symbols), `${label} certain`).toBe(truth === 1);
    expect(accepts(l.possible, symbols), `${label} possible`).toBe(truth !== 0);
  }
}

describe("url alphabet", () => {
  it("without operators, each scheme's letters in both cases and the structure's characters are symbols", () => {
    const alphabet = alphabetFor([]);
    expect(merged(alphabet, "httpswsftpfileHTTPSWSFTPFILE")).toEqual([]);
    expect(merged(alphabet, ":/?&=.#@\\%\u0000")).toEqual([]);
    // A letter no scheme has is one symbol with the others.
    expect(merged(alphabet, "qQ")).toEqual(["q", "Q"]);
    // What may follow `://` in a certain URL is told from a blank, a control character and a backslash.
    const symbolOf = (cp: number) => alphabet.symbolOf(cp);
    expect(symbolOf(0x20)).not.toBe(symbolOf(0x21));
    expect(symbolOf(0x1f)).not.toBe(symbolOf(0x21));
    expect(symbolOf(0x7f)).not.toBe(symbolOf(0x7e));
    expect(symbolOf(0x7f)).not.toBe(symbolOf(0x80));
    expect(symbolOf(0x20)).toBe(symbolOf(0x1f));
  });

  it("an operator with no parts cuts nothing more than no operator", () => {
    expect(alphabetFor([{}]).size).toBe(alphabetFor([]).size);
    expect(alphabetFor([{}, { query: undefined } as UrlSpec]).size).toBe(alphabetFor([]).size);
  });

  it("a host's letters, as written and as compared, are symbols in both cases", () => {
    const alphabet = alphabetFor([{ host: "exämple.com" }]);
    expect(merged(alphabet, "äÄexamplcomEXAMPLCOM")).toEqual([]);
    const wildcard = alphabetFor([{ host: "*.bücher.de" }]);
    // `*.bücher.de` is compared as its punycode, `.xn--bcher-kva.de`.
    expect(merged(wildcard, "üÜbcherdBCHERDxnkvaXNKVA-")).toEqual([]);
    expect(merged(alphabetFor([]), "üxkv")).toEqual(["ü", "x", "k", "v"]);
  });

  it("a scheme outside the simple ones has its letters as symbols in both cases", () => {
    const alphabet = alphabetFor([{ scheme: "gopher" }]);
    expect(merged(alphabet, "gopherGOPHER")).toEqual([]);
    expect(merged(alphabetFor([]), "gG")).toEqual(["g", "G"]);
  });

  it("a path glob's letters are symbols in both cases", () => {
    expect(merged(alphabetFor([{ path: "/A" }]), "aA")).toEqual([]);
    expect(merged(alphabetFor([{ path: "/Zz" }]), "zZ")).toEqual([]);
    expect(merged(alphabetFor([]), "zZ")).toEqual(["z", "Z"]);
    // Ignoring case, `k` is also the Kelvin sign: each of the three is a symbol.
    expect(merged(alphabetFor([{ path: "/K" }]), "kK\u212A")).toEqual([]);
    expect(merged(alphabetFor([{ path: "/k" }]), "kK\u212A")).toEqual([]);
  });

  it("parts that are not strings are passed over (such a policy does not load)", () => {
    const odd = [{ host: [5] }, { query: { keys: [5] } }, { path: [5] }] as unknown as UrlSpec[];
    for (const spec of odd) expect(alphabetFor([spec]).size, JSON.stringify(spec)).toBe(alphabetFor([]).size);
  });

  it("a path glob whose lower-case spelling does not compile is read exactly only", () => {
    // `[Z-a]` is a range; `[z-a]` is none.
    const spec: UrlSpec = { path: "/[Z-a]" };
    expect(compileUrl({ path: "/[z-a]" }).ok).toBe(false);
    expectRuntime(spec, [
      "https://x.com/Z",
      "https://x.com/_",
      "https://x.com/a",
      "https://x.com/z",
      "https://x.com/",
    ]);
  });
});

describe("url operator languages", () => {
  it("an operator that does not compile never has languages that accept a URL, however often asked", () => {
    for (const spec of [{ host: "a*b.com" }, { path: "no-slash[" }] as UrlSpec[]) {
      const { alphabet, urls } = languagesFor([spec]);
      for (let i = 0; i < 3; i++) {
        const l = urls.url(spec);
        if (l === undefined) continue;
        for (const value of ["https://a.b/", "https://ab.com/", "http://x.com/no-slash"]) {
          expect(accepts(l.certain, alphabet.symbols(value)), `${value} certain ${i}`).toBe(false);
          expect(accepts(l.possible, alphabet.symbols(value)), `${value} possible ${i}`).toBe(false);
        }
      }
    }
  });

  it("two operators of one verification each get their own languages", () => {
    const specs: UrlSpec[] = [{ port: 443 }, { port: 80 }, { path: "/a" }, { path: "/b" }];
    const { alphabet, urls } = languagesFor(specs);
    const values = ["https://x.com/", "http://x.com/", "https://x.com/a", "https://x.com/B"];
    for (const spec of specs) {
      const l = urls.url(spec) as UrlOperatorLanguages;
      for (const value of values) {
        const truth = runtime(spec)(value);
        const symbols = alphabet.symbols(value);
        expect(accepts(l.certain, symbols), `${value} certain ${JSON.stringify(spec)}`).toBe(truth === 1);
        expect(accepts(l.possible, symbols), `${value} possible ${JSON.stringify(spec)}`).toBe(truth !== 0);
      }
    }
  });

  it("query keys with characters a word has not: only the keys the runtime reads", () => {
    const values = [
      "https://x.com/",
      "https://x.com/?a=b",
      "https://x.com/?b=a",
      "https://x.com/?ab=1",
      "https://x.com/?ab",
      "https://x.com/?a",
      "https://x.com/?b",
    ];
    for (const keys of [["a=b"], ["b=a"], ["ab"], ["ab", "b=a"], []])
      expectRuntime({ query: { keys } }, values);
  });

  it("a path glob with a letter whose capital is two letters is possible only where the runtime may match", () => {
    const values = ["https://x.com/strasse", "https://x.com/STRASSE", "https://x.com/ss", "https://x.com/a"];
    expectRuntime({ path: "/straße" }, values);
    expectRuntime({ path: ["/ß", "/A"] }, values);
    // `İ` in lower case is `i` and a combining dot: the glob read ignoring case has a character `İ` has not.
    expectRuntime({ path: "/İ" }, ["https://x.com/i", "https://x.com/I", "https://x.com/a"]);
  });

  it("an IPv6 host names no simple URL, and its languages are made", () => {
    expectRuntime({ host: "[::1]" }, ["https://x.com/", "http://a.b:80/"]);
    expectRuntime({ host: ["[::1]", "a.b"] }, ["https://x.com/", "http://a.b:80/", "HTTP://A.B/x"]);
  });

  it("certainAnywhere names no host where the operator names none, or one spelt otherwise", () => {
    const cases: [UrlSpec, string, boolean][] = [
      [{ host: [] }, "https://a.b/", true],
      [{ host: [] }, "https://", true],
      [{ host: "*.bücher.de" }, "https://other.example/", true],
      [{ host: "*.bücher.de" }, "https://a.xn--bcher-kva.de/", true],
      // A name with a character other than a letter, digit, dot or hyphen: not narrowed either.
      [{ host: "_a.com" }, "https://other.example/", true],
      [{ host: "a_.com" }, "https://other.example/", true],
      [{ host: "_a.com" }, "https://_a.com/", true],
      [{ host: "a-b.com" }, "https://other.example/", false],
      [{ host: "*.example.de" }, "https://other.example/", false],
      [{ host: "*.example.de" }, "https://a.EXAMPLE.de/", true],
    ];
    const { alphabet, urls } = languagesFor(cases.map(([spec]) => spec));
    for (const [spec, value, want] of cases) {
      const l = urls.url(spec) as UrlOperatorLanguages;
      const anywhere: Dfa = l.certainAnywhere;
      expect(accepts(anywhere, alphabet.symbols(value)), `${value} ${JSON.stringify(spec)}`).toBe(want);
      if (runtime(spec)(value) === 1) expect(want, value).toBe(true);
    }
  });
});
