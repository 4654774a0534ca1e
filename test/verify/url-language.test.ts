/**
 * On the simple URLs, the verifier's automata of the `url` operator give exactly the runtime's answers: certain
 * where the operator is certain, possible where it may match; every URL the operator is certain of, simple or not,
 * is in `certainAnywhere`; and the facts between two `url` operators hold on every string. URLs are drawn from
 * parts that make simple ones (schemes in both cases, hosts, ports, paths, queries) and parts that do not (userinfo,
 * backslashes, dot segments, percent signs, blanks, IP addresses, trailing dots, leading zeros, fragments).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileUrl, type UrlSpec } from "../../src/runtime/match/url.js";
import { AlphabetBuilder } from "../../src/verify/alphabet.js";
import { Automata } from "../../src/verify/automata.js";
import { accepts, type Dfa } from "../../src/verify/dfa.js";
import { FieldFacts } from "../../src/verify/facts.js";
import type { Atom } from "../../src/verify/formula.js";
import { UrlLanguages } from "../../src/verify/url-language.js";

const RUNS = Number(process.env.TOOLGATE_URL_RUNS ?? 300);

const SCHEMES = ["https", "HTTPS", "http", "hTtp", "wss", "ftp", "file", "mailto", "h"];
const HOSTS = [
  "api.github.com",
  "API.GitHub.com",
  "a.example.com",
  "example.com",
  "b.a.example.com",
  "evil.com",
  "api.github.com.",
  "127.0.0.1",
  "0x7f.1",
  "xn--pi-7kc.github.com",
  "a-b.com",
  "a--b.com",
  "user@evil.com",
  "api.github.com@evil.com",
  "localhost",
  "",
  // The Kelvin sign is a `k` to toLowerCase and to the parser (`ka.example.com`, certain for `*.example.com`);
  // the long s is an `s` to the parser only (a maybe).
  "\u212Aa.example.com",
  "\u017Fxample.com",
  "A.EXAMPLE.COM",
];
const PORTS = ["", ":443", ":8443", ":80", ":0443", ":", ":65536", ":21"];
const PATHS = [
  "",
  "/",
  "/a",
  "/A",
  "/a/",
  "/repos/x",
  "/Repos/x",
  "/a/../b",
  "/%41",
  "/a//b",
  "/.",
  "\\a",
  "/~x",
];
const QUERIES = ["", "?a=1", "?b", "?a=1&b=2", "?a;b", "?%61", "?", "#f", "?a=1#f"];
const EXTRAS = ["", " ", "\t", "x"];

const wild = fc
  .tuple(
    fc.constantFrom(...SCHEMES),
    fc.constantFrom("://", "://", ":/", ":"),
    fc.constantFrom(...HOSTS),
    fc.constantFrom(...PORTS),
    fc.constantFrom(...PATHS),
    fc.constantFrom(...QUERIES),
    fc.constantFrom(...EXTRAS),
  )
  .map(([s, sep, h, p, path, q, extra]) => `${extra === "x" ? "" : extra}${s}${sep}${h}${p}${path}${q}`);
/** URLs of the simple shape, mostly. */
const plain = fc
  .tuple(
    fc.constantFrom("https", "HTTPS", "http", "hTtp", "wss", "ws", "ftp"),
    fc.constantFrom(
      "api.github.com",
      "API.GitHub.com",
      "a.example.com",
      "example.com",
      "evil.com",
      "a-b.com",
      "localhost",
      // Near misses: one letter off, in either case, so that letters an automaton reads alike show.
      "apj.github.com",
      "API.GITHUB.CON",
      "api.githuc.com",
      "b.example.com",
      "example.con",
      "LOCALHOSU",
      "evil.co",
      "xn.com",
    ),
    fc.constantFrom("", ":443", ":8443", ":80", ":21", ":0", ":444", ":8", ":65535", ":22"),
    fc.constantFrom(
      "",
      "/",
      "/a",
      "/A",
      "/a/",
      "/repos/x",
      "/Repos/x/",
      "/a/b",
      "/.x",
      "/a.b",
      "/b",
      "/reposx",
      "/REPOS/Y",
      "/a/b/c",
      "/~x",
      "/x-y_z",
    ),
    fc.constantFrom("", "?a=1", "?b", "?a=1&b=2", "?c", "?a&c=", "?A=1", "?bb", "?a=1&c"),
  )
  .map(([s, h, p, path, q]) => `${s}://${h}${p}${path}${q}`);
const url = fc.oneof(plain, wild);

const spec: fc.Arbitrary<UrlSpec> = fc
  .record(
    {
      scheme: fc.subarray(["https", "http", "wss", "ftp", "file"], { minLength: 1 }),
      host: fc.subarray(
        [
          "api.github.com",
          "example.com",
          "a.example.com",
          "*.example.com",
          "evil.com",
          "127.0.0.1",
          "localhost",
        ],
        {
          minLength: 1,
        },
      ),
      port: fc.subarray([443, 8443, 80, 21], { minLength: 1 }),
      // In upper case too: such a glob matches a path exactly, or in lower case a path in lower case.
      path: fc.subarray(["/repos/**", "/a", "/a/*", "/**", "/Repos/**", "/A"], { minLength: 1 }),
      query: fc.subarray(["a", "b"]).map((keys) => ({ keys })),
    },
    { requiredKeys: [] },
  )
  .filter((s) => Object.keys(s).length > 0);

/**
 * The URL languages over an alphabet cut for the operators only (as a field with nothing else would have it): the
 * values tested are read in its symbols, so a character the boundaries leave merged with others shows.
 */
function languagesFor(specs: readonly UrlSpec[], _values: readonly string[]) {
  const builder = new AlphabetBuilder();
  UrlLanguages.addBoundaries(builder, specs);
  const automata = new Automata(builder.build());
  return { automata, urls: automata.urls() };
}

function runtime(s: UrlSpec): (value: string) => number {
  const compiled = compileUrl(s);
  if (!compiled.ok) throw new TypeError(`spec does not compile: ${JSON.stringify(compiled.problems)}`);
  return compiled.test;
}

/**
 * Checks that the facts between two url operators allow the runtime's answers on each value, and returns how many
 * of the nine pairs of answers they rule out.
 */
function factsHoldOn(a: UrlSpec, b: UrlSpec, values: readonly string[]): number {
  const { automata } = languagesFor([a, b], values);
  const atoms = [a, b].map((value, id) => ({ id, operator: "url", value }) as unknown as Atom);
  const facts = new FieldFacts(automata, atoms);
  const ta = runtime(a);
  const tb = runtime(b);
  for (const value of values) {
    const truths = new Map([
      [0, ta(value) as 0 | 1 | 2],
      [1, tb(value) as 0 | 1 | 2],
    ]);
    expect(facts.allows(truths), `${value}: ${JSON.stringify([a, b])}`).toBe(true);
  }
  let pruned = 0;
  for (const x of [0, 1, 2] as const)
    for (const y of [0, 1, 2] as const)
      if (
        !facts.allows(
          new Map([
            [0, x],
            [1, y],
          ]),
        )
      )
        pruned++;
  return pruned;
}

describe("url languages", () => {
  it("are the runtime's answers on simple URLs, and hold every certain URL", () => {
    let simpleSeen = 0;
    fc.assert(
      fc.property(spec, fc.array(url, { minLength: 1, maxLength: 12 }), (s, values) => {
        const { automata, urls } = languagesFor([s], values);
        const languages = urls.url(s);
        expect(languages).toBeDefined();
        if (languages === undefined) return;
        const test = runtime(s);
        for (const value of values) {
          const symbols = automata.alphabet.symbols(value);
          const truth = test(value);
          if (truth === 1) expect(accepts(languages.certainAnywhere, symbols), value).toBe(true);
          if (truth === 0) expect(accepts(languages.neverFalse, symbols), `${value} never false`).toBe(false);
          if (!accepts(urls.simple, symbols)) continue;
          simpleSeen++;
          expect(accepts(languages.certain, symbols), `${value} certain`).toBe(truth === 1);
          expect(accepts(languages.possible, symbols), `${value} possible`).toBe(truth !== 0);
        }
      }),
      { numRuns: RUNS },
    );
    // The generator makes simple URLs: a language that accepted none would pass the loop above.
    expect(simpleSeen).toBeGreaterThan(RUNS);
  });

  it("each part alone gives the runtime's answers on every URL of a fixed list", () => {
    const specs: UrlSpec[] = [
      { scheme: "https" },
      { scheme: ["http", "ws"] },
      { scheme: "file" },
      { host: "api.github.com" },
      { host: ["*.example.com", "localhost"] },
      { host: "127.0.0.1" },
      { port: 443 },
      { port: [80, 8443] },
      { port: 21 },
      { port: [] },
      { path: "/repos/**" },
      { path: ["/a", "/a/*"] },
      { path: "/" },
      { path: "/Repos/*" },
      { path: ["/A/**", "/b"] },
      { query: { keys: ["a"] } },
      { query: { keys: ["a", "b"] } },
      { query: { keys: [] } },
      { query: { keys: ["a b", "c"] } },
    ];
    const urls = fc.sample(plain, { numRuns: 400, seed: 11 });
    urls.push(
      "https://api.github.com",
      "wss://a.example.com",
      "ws://localhost:80/",
      "ftp://x.com/",
      "ftp://x.com:21/",
      "https://x.com/repos",
      "https://x.com/repos/",
      "https://x.com/Repos/a",
      "https://x.com/?a=1&b",
      "https://x.com?c",
    );
    let differing = 0;
    for (const s of specs) {
      const { automata, urls: languages } = languagesFor([s], []);
      const l = languages.url(s) as NonNullable<ReturnType<typeof languages.url>>;
      const test = runtime(s);
      const seen = new Set<number>();
      for (const value of urls) {
        const symbols = automata.alphabet.symbols(value);
        if (!accepts(languages.simple, symbols)) continue;
        const truth = test(value);
        seen.add(truth);
        expect(accepts(l.certain, symbols), `${value} certain ${JSON.stringify(s)}`).toBe(truth === 1);
        expect(accepts(l.possible, symbols), `${value} possible ${JSON.stringify(s)}`).toBe(truth !== 0);
      }
      if (seen.size > 1) differing++;
    }
    // Most parts tell some URLs of the list apart: a list every part answered alike would test little.
    expect(differing).toBeGreaterThan(specs.length - 5);
  });

  it("simple URLs: each special scheme with a host, and none of the spellings the parser changes", () => {
    const { automata, urls } = languagesFor([], []);
    const simple = (value: string) => accepts(urls.simple, automata.alphabet.symbols(value));
    for (const value of [
      "https://api.github.com",
      "HTTP://localhost/",
      "wss://a.b:8443/x",
      "WS://a-b.c:80/",
      "ftp://files.example.com/pub/x.tar",
      "https://a.b/~x/.well-known/y?a=1&b=&c",
      "https://a1.b2c:65535",
      "https://a.b:0/",
    ]) {
      expect(simple(value), value).toBe(true);
    }
    for (const value of [
      "file:///etc/passwd",
      "mailto://a.b",
      "https://1.2.3.4/",
      "https://a.123/",
      "https://a..b/",
      "https://a.b./",
      "https://-a.b/",
      "https://a-.b/",
      "https://xn--pi-7kc.com/",
      "https://a.b:0443/",
      "https://a.b:65536/",
      "https://a.b:/",
      "https://a.b/./x",
      "https://a.b/../x",
      "https://a.b//x",
      "https://a.b/%41",
      "https://u@a.b/",
      "https://a.b/#f",
      "https://a.b/?",
      "https://a.b/?a&&b",
      " https://a.b/",
      "https:/a.b/",
      "https:a.b",
      "https://a.b\\x",
      "https://a b/",
    ]) {
      expect(simple(value), value).toBe(false);
    }
  });

  it("certainAnywhere holds only strings of the operator's schemes, in any case, with no blank or backslash", () => {
    const { automata, urls } = languagesFor([{ scheme: "https" }, { host: "a.b" }], []);
    const certainOf = (spec: UrlSpec, value: string) =>
      accepts((urls.url(spec) as { certainAnywhere: Dfa }).certainAnywhere, automata.alphabet.symbols(value));
    expect(certainOf({ scheme: "https" }, "HTTPS://x%41@y/")).toBe(true);
    expect(certainOf({ scheme: "https" }, "http://a.b/")).toBe(false);
    expect(certainOf({ scheme: "https" }, "https:/a.b/")).toBe(false);
    expect(certainOf({ scheme: "https" }, "https://a b/")).toBe(false);
    expect(certainOf({ scheme: "https" }, "https://a\\b/")).toBe(false);
    expect(certainOf({ scheme: "https" }, " https://a.b/")).toBe(false);
    expect(certainOf({ host: "a.b" }, "FTP://a.b/")).toBe(true);
    expect(certainOf({ host: "a.b" }, "file://a.b/")).toBe(true);
    expect(certainOf({ host: "a.b" }, "mailto://a.b/")).toBe(false);
  });

  it("certainAnywhere of an operator whose path globs miss `/` holds only URLs with a path after the host", () => {
    const specs: UrlSpec[] = [
      { host: "a.b", path: "/api/**" },
      { host: "a.b", path: ["/", "/x"] },
      { host: "a.b", path: "/**" },
    ];
    const { automata, urls } = languagesFor(specs, []);
    const cases: [UrlSpec, string, boolean][] = [
      [specs[0] as UrlSpec, "https://a.b/api/x", true],
      [specs[0] as UrlSpec, "https://a.b?x@c.d/api", false],
      [specs[0] as UrlSpec, "https://a.b#/api/x", false],
      [specs[0] as UrlSpec, "https://a.b", false],
      [specs[0] as UrlSpec, "https://a.b:8443/api", true],
      [specs[1] as UrlSpec, "https://a.b?q", true],
      [specs[2] as UrlSpec, "https://a.b#f", true],
    ];
    for (const [spec, value, want] of cases) {
      const certain = accepts(
        (urls.url(spec) as { certainAnywhere: Dfa }).certainAnywhere,
        automata.alphabet.symbols(value),
      );
      expect(certain, `${JSON.stringify(spec)} ${value}`).toBe(want);
      // Never narrower than the runtime: where it is certain, so is certainAnywhere.
      if (runtime(spec)(value) === 1) expect(certain, value).toBe(true);
    }
    // The runtime is certain of the URLs said to be so here, and of none said not to be, for the first spec.
    expect(runtime(specs[0] as UrlSpec)("https://a.b/api/x")).toBe(1);
    expect(runtime(specs[0] as UrlSpec)("https://a.b?x@c.d/api")).not.toBe(1);
  });

  it("certainAnywhere of an operator naming hosts holds only URLs written with one of them, in any case", () => {
    const specs: UrlSpec[] = [{ host: "a.b" }, { host: ["*.x.io", "10.0.0.1"] }, { host: "bücher.de" }];
    const { automata, urls } = languagesFor(specs, []);
    const certainOf = (spec: UrlSpec, value: string) =>
      accepts((urls.url(spec) as { certainAnywhere: Dfa }).certainAnywhere, automata.alphabet.symbols(value));
    const cases: [UrlSpec, string, boolean][] = [
      [{ host: "a.b" }, "https://a.b", true],
      [{ host: "a.b" }, "HTTPS://A.B:8443/x?y#z", true],
      [{ host: "a.b" }, "https://a.b:", true],
      [{ host: "a.b" }, "https://a.bc/", false],
      [{ host: "a.b" }, "https://xa.b/", false],
      [{ host: "a.b" }, "https://u@a.b/", false],
      [{ host: "a.b" }, "https://a.b@c.d/", false],
      [{ host: "a.b" }, "https://1.2.3.4/", false],
      [{ host: "a.b" }, "https://a.b:x/", false],
      [{ host: ["*.x.io", "10.0.0.1"] }, "https://p.q.X.IO/", true],
      [{ host: ["*.x.io", "10.0.0.1"] }, "https://x.io/", false],
      [{ host: ["*.x.io", "10.0.0.1"] }, "https://10.0.0.1:80/", true],
      [{ host: ["*.x.io", "10.0.0.1"] }, "https://10.0.0.2/", false],
      // A name the parser may spell otherwise is not narrowed: anything after the scheme.
      [{ host: "bücher.de" }, "https://other.example/", true],
    ];
    for (const [spec, value, want] of cases) {
      expect(certainOf(spec, value), `${value} ${JSON.stringify(spec)}`).toBe(want);
      // Never narrower than the runtime: what it is certain of is kept.
      if (runtime(spec)(value) === 1) expect(want, value).toBe(true);
    }
  });

  it("neverFalse holds every string but a URL of a scheme with a host, and one of another scheme for schemes alone", () => {
    const specs: UrlSpec[] = [
      { scheme: "https" },
      { scheme: ["https", "HTTP"] },
      { scheme: "https", port: 443 },
    ];
    const { automata, urls } = languagesFor(specs, []);
    const neverFalse = (spec: UrlSpec, value: string) =>
      accepts((urls.url(spec) as { neverFalse: Dfa }).neverFalse, automata.alphabet.symbols(value));
    const cases: [UrlSpec, string, boolean][] = [
      [{ scheme: "https" }, "https://a.b/", true],
      [{ scheme: "https" }, "HTTPS://a.b/", true],
      [{ scheme: "https" }, "http://a.b/", false],
      [{ scheme: "https" }, "FILE:///a", false],
      [{ scheme: "https" }, "WSS://a.b", false],
      [{ scheme: "https" }, "http:/a.b/", true],
      [{ scheme: "https" }, "http://a b/", true],
      [{ scheme: "https" }, " http://a.b/", true],
      [{ scheme: "https" }, "http://a\b/", true],
      [{ scheme: "https" }, "mailto://a.b", true],
      [{ scheme: "https" }, "", true],
      [{ scheme: ["https", "HTTP"] }, "Http://a.b/", true],
      [{ scheme: ["https", "HTTP"] }, "ftp://a.b/", false],
      // Another part read: false on a URL of its own scheme too.
      [{ scheme: "https", port: 443 }, "https://a.b:8443/", false],
      [{ scheme: "https", port: 443 }, "https:a.b", true],
    ];
    for (const [spec, value, want] of cases) {
      expect(neverFalse(spec, value), `${value} ${JSON.stringify(spec)}`).toBe(want);
      // Never narrower than the runtime: where it is false, the operator may be false.
      if (runtime(spec)(value) === 0) expect(want, value).toBe(false);
    }
    // Every scheme with a host named: never false.
    const all: UrlSpec = { scheme: ["http", "https", "ws", "wss", "ftp", "file"] };
    const every = languagesFor([all], []);
    const l = every.urls.url(all) as { neverFalse: Dfa };
    for (const value of ["https://a.b/", "file:///x", "FTP://a"])
      expect(accepts(l.neverFalse, every.automata.alphabet.symbols(value)), value).toBe(true);
  });

  it("facts between url operators of paths and hosts hold on URLs of every spelling of them", () => {
    const pathSpec: fc.Arbitrary<UrlSpec> = fc
      .record(
        {
          // Few globs and hosts each: a fact relates two lists only where every pair is related.
          host: fc.subarray(
            ["x.org", "127.0.0.1", "::ffff:127.0.0.1", "2002:a00:1::", "2001:db8::1", "*.x.org", "10.0.0.1"],
            { minLength: 1, maxLength: 2 },
          ),
          path: fc.subarray(
            [
              "/",
              "/docs/**",
              "/docs",
              "/DOCS/a",
              "/api/**",
              "/a/*",
              "/a",
              "/A/**",
              "/d*",
              "/\u212A",
              "/k",
              "/{a,b}/x",
            ],
            { minLength: 1, maxLength: 2 },
          ),
          scheme: fc.subarray(["https", "http"], { minLength: 1 }),
          port: fc.subarray([443, 80], { minLength: 1 }),
        },
        { requiredKeys: [] },
      )
      .filter((s) => Object.keys(s).length > 0);
    const pathUrl = fc
      .tuple(
        fc.constantFrom("https", "HTTP", "ftp"),
        fc.constantFrom(
          "x.org",
          "a.X.org",
          "127.0.0.1",
          "[::ffff:7f00:1]",
          "[::FFFF:127.0.0.1]",
          "[2002:a00:1::]",
          "[2002:7f00:1::]",
          "[2001:db8::1]",
          "10.0.0.1",
          "u@x.org",
        ),
        fc.constantFrom("", ":443", ":80", ":8443"),
        fc.constantFrom(
          "",
          "/",
          "/docs",
          "/docs/",
          "/docs/a",
          "/Docs/a/b",
          "/DOCS/A",
          "/docs/@",
          "/api",
          "/api/v1",
          "/API/",
          "/a",
          "/a/b",
          "/A/b",
          "/b/x",
          "/d",
          "/dx",
          "/%E2%84%AA",
          "/\u212A",
          "/K",
          "/k",
          "/%2e",
          "/docs/../api",
          "/docs/%2F",
          "/docs%2Fa",
          "//docs",
          "/a/",
        ),
        fc.constantFrom("", "?a=1", "#f"),
      )
      .map(([s, h, p, path, q]) => `${s}://${h}${p}${path}${q}`);
    let pruned = 0;
    fc.assert(
      fc.property(pathSpec, pathSpec, fc.array(pathUrl, { minLength: 1, maxLength: 16 }), (a, b, values) => {
        pruned += factsHoldOn(a, b, values);
      }),
      { numRuns: RUNS },
    );
    expect(pruned).toBeGreaterThan(0);
  });

  it("an empty list of schemes, hosts, ports or paths matches no URL, as the runtime answers", () => {
    const values = [
      "https://api.github.com/",
      "http://a.example.com:80/a?a=1",
      "ftp://x.com/",
      "wss://localhost:443",
      "file:///a",
      "HTTPS://A.B",
    ];
    for (const s of [{ scheme: [] }, { host: [] }, { port: [] }, { path: [] }] as UrlSpec[]) {
      const { automata, urls } = languagesFor([s], []);
      const l = urls.url(s) as NonNullable<ReturnType<typeof urls.url>>;
      expect(l, JSON.stringify(s)).toBeDefined();
      for (const value of values) {
        expect(runtime(s)(value), `${value} ${JSON.stringify(s)}`).toBe(0);
        const symbols = automata.alphabet.symbols(value);
        expect(accepts(l.certain, symbols), `${value} certain ${JSON.stringify(s)}`).toBe(false);
        expect(accepts(l.possible, symbols), `${value} possible ${JSON.stringify(s)}`).toBe(false);
      }
    }
  });

  it("an operator whose host does not compile has no languages", () => {
    const { urls } = languagesFor([], []);
    expect(urls.url({ host: "a*b.com" })).toBeUndefined();
    expect(urls.url({ path: "no-slash[" } as UrlSpec)).toBeUndefined();
  });

  it("simple URLs are those the parser keeps as written, up to case and a default port", () => {
    fc.assert(
      fc.property(url, (value) => {
        const { automata, urls } = languagesFor([], [value]);
        if (!accepts(urls.simple, automata.alphabet.symbols(value))) return;
        const m = /^([A-Za-z]+):\/\/([^:/?]+)(?::(\d+))?([^?]*)(.*)$/.exec(value) as RegExpExecArray;
        const scheme = (m[1] as string).toLowerCase();
        const defaults: Record<string, string> = {
          http: "80",
          https: "443",
          ws: "80",
          wss: "443",
          ftp: "21",
        };
        const port = m[3] === undefined || m[3] === defaults[scheme] ? "" : `:${m[3]}`;
        const path = m[4] === "" ? "/" : (m[4] as string);
        expect(new URL(value).href).toBe(
          `${scheme}://${(m[2] as string).toLowerCase()}${port}${path}${m[5]}`,
        );
        expect(runtime({ scheme: ["http", "https", "ws", "wss", "ftp"] })(value)).toBe(1);
      }),
      { numRuns: RUNS },
    );
  });

  it("facts between two url operators hold on every string", () => {
    let pruned = 0;
    fc.assert(
      fc.property(spec, spec, fc.array(url, { minLength: 1, maxLength: 12 }), (a, b, values) => {
        pruned += factsHoldOn(a, b, values);
      }),
      { numRuns: RUNS },
    );
    // Some pairs are related: facts that never prune would pass the loop above.
    expect(pruned).toBeGreaterThan(0);
  });

  it("facts keep paths apart only where their globs' texts do not meet, whichever starts the other", () => {
    // `/src/a*` and `/src/*` both match `/src/ab`: the text one glob's paths start with starts the other's, in
    // either order, so no fact may say a URL certain for one is false for the other.
    for (const [a, b] of [
      ["/src/a*", "/src/*"],
      ["/src/*", "/src/a*"],
      ["/docs/v1/*", "/docs/**"],
      ["/docs/**", "/docs/v1/*"],
    ] as const) {
      for (const value of ["https://x.org/src/ab", "https://x.org/docs/v1/a"]) {
        const pa = runtime({ path: a })(value);
        const pb = runtime({ path: b })(value);
        if (pa !== 1 || pb !== 1) continue;
        const { automata } = languagesFor([{ path: a }, { path: b }], [value]);
        const atoms = [a, b].map((path, id) => ({ id, operator: "url", value: { path } }) as unknown as Atom);
        const facts = new FieldFacts(automata, atoms);
        expect(
          facts.allows(
            new Map([
              [0, 1],
              [1, 1],
            ]),
          ),
          `${value}: ${a} and ${b}`,
        ).toBe(true);
      }
    }
    // Paths that do not meet are kept apart: certain for one, the other is false.
    const { automata } = languagesFor([{ path: "/src/*" }, { path: "/docs/*" }], []);
    const atoms = ["/src/*", "/docs/*"].map(
      (path, id) => ({ id, operator: "url", value: { path } }) as unknown as Atom,
    );
    expect(
      new FieldFacts(automata, atoms).allows(
        new Map([
          [0, 1],
          [1, 1],
        ]),
      ),
    ).toBe(false);
  });

  it("facts relate the operators the reference policy's rules and properties write", () => {
    const cases: { a: UrlSpec; b: UrlSpec; value: string }[] = [
      { a: { host: "a.example.com" }, b: { host: "*.example.com" }, value: "https://a.example.com/" },
      {
        a: { scheme: "https", host: ["x.org"], port: 443 },
        b: { host: ["x.org", "y.org"] },
        value: "HTTPS://X.ORG",
      },
      { a: { host: "x.org" }, b: { host: "y.org" }, value: "https://x.org/" },
      { a: { port: 443 }, b: { port: 8443 }, value: "https://x.org/" },
      { a: { scheme: "https" }, b: { scheme: "http" }, value: "https://x.org/" },
      { a: { path: "/a/*" }, b: { path: ["/a/*", "/b"] }, value: "https://x.org/A/b" },
    ];
    for (const { a, b, value } of cases) {
      const { automata } = languagesFor([a, b], [value]);
      const atoms = [a, b].map((v, id) => ({ id, operator: "url", value: v }) as unknown as Atom);
      const facts = new FieldFacts(automata, atoms);
      const truths = new Map([
        [0, runtime(a)(value) as 0 | 1 | 2],
        [1, runtime(b)(value) as 0 | 1 | 2],
      ]);
      expect(facts.allows(truths), `${value}: ${JSON.stringify([a, b])}`).toBe(true);
      // The fact that relates them rules out some pair of truths.
      const ruledOut = ([0, 1, 2] as const).flatMap((x) =>
        ([0, 1, 2] as const).filter(
          (y) =>
            !facts.allows(
              new Map([
                [0, x],
                [1, y],
              ]),
            ),
        ),
      );
      expect(ruledOut.length, JSON.stringify([a, b])).toBeGreaterThan(0);
    }
  });
});
