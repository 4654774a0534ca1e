/**
 * The `url` operator against the WHATWG URL parser (Node's `URL`, an oracle nobody here wrote) and against a
 * corpus of spellings that bypass string matching of URLs elsewhere.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodePunycode } from "../../../src/runtime/match/punycode.js";
import { compileUrl, type UrlSpec } from "../../../src/runtime/match/url.js";
import { hostLabelProblem } from "../../../src/runtime/match/url-scripts.js";

const ANSWER = ["no", "certain", "maybe"] as const;

function urlTest(spec: UrlSpec): (value: string) => (typeof ANSWER)[number] {
  const compiled = compileUrl(spec);
  if (!compiled.ok) throw new Error(compiled.problems.map((p) => p.message).join("; "));
  return (value) => ANSWER[compiled.test(value)];
}

/**
 * A test compiled on its first use, inside a test: compiling when vitest collects the file would turn a broken
 * compiler into a file that does not load, which a mutation run does not count as a failing test.
 */
function lazyUrlTest(spec: UrlSpec): (value: string) => (typeof ANSWER)[number] {
  let compiled: ((value: string) => (typeof ANSWER)[number]) | undefined;
  return (value) => {
    compiled ??= urlTest(spec);
    return compiled(value);
  };
}

const github = lazyUrlTest({ scheme: ["https"], host: ["api.github.com"] });

describe("url: the bypass corpus", () => {
  const cases: readonly [string, (typeof ANSWER)[number], string][] = [
    ["https://api.github.com/repos/x", "certain", "the plain spelling"],
    ["https://api.github.com", "certain", "no path: the parser adds /"],
    ["https://api.github.com?x=1", "certain", "a query without a path"],
    ["https://api.github.com#top", "certain", "a fragment"],
    ["HTTPS://API.GITHUB.COM/repos", "certain", "case of scheme and host"],
    ["https://api.github.com:443/x", "certain", "the default port written out"],
    ["https://api.github.com/@evil.com", "certain", "@ in the path is only a path"],
    ["https://api.github.com/%C3%A4", "certain", "percent-encoded UTF-8 in the path, as the parser keeps it"],
    ["http://api.github.com/", "no", "http is not https"],
    ["https://api.github.com.evil.com/", "no", "a longer host"],
    ["https://evil.com/api.github.com", "no", "the allowed host in the path"],
    ["https://evil.com/@api.github.com", "no", "an @ after the host"],
    ["https://evil.com?@api.github.com", "no", "an @ in the query"],
    ["https://good.com@evil.com/", "maybe", "userinfo"],
    ["https://api.github.com@evil.com/", "maybe", "the allowed host as userinfo"],
    ["https://user:pw@api.github.com/", "maybe", "userinfo before the allowed host"],
    ["https://@api.github.com/", "maybe", "an empty userinfo the parser drops"],
    ["https://api.github.com\\@evil.com/", "maybe", "a backslash reads as /"],
    ["https:\\\\api.github.com\\", "maybe", "backslashes for slashes"],
    ["https://api.github.com/a\\..\\b", "maybe", "a backslash in the path"],
    ["https://api.github.com/%2e%2e/x", "maybe", "an encoded .. segment"],
    ["https://api.github.com/%2E/x", "maybe", "an encoded . segment"],
    ["https://api.github.com/a/../b", "maybe", "a .. segment"],
    ["https://api.github.com/./b", "maybe", "a . segment"],
    ["https://api.github.com./", "maybe", "a trailing dot"],
    ["https://api.github.com../", "maybe", "two trailing dots"],
    ["https://\u0430pi.github.com/", "maybe", "a Cyrillic а"],
    ["https://xn--pi-6kc.github.com/", "maybe", "the same in punycode"],
    ["https://api.g\u0456thub.com/", "maybe", "a Cyrillic і"],
    ["https://api.github.com\u3002evil.com/", "maybe", "an ideographic full stop"],
    ["https://\uff41pi.github.com/", "maybe", "a fullwidth a that IDNA maps to a"],
    ["https://api%2egithub.com/", "maybe", "a percent-encoded host character"],
    ["https://api.github.com%40evil.com/", "maybe", "an encoded @ in the host"],
    ["https://api.github.com:0443/", "maybe", "a port with a leading zero"],
    ["https://api.github.com:/", "maybe", "an empty port"],
    ["https:api.github.com", "maybe", "no // after the scheme"],
    ["https:/api.github.com/", "maybe", "one / after the scheme"],
    ["https:///api.github.com/", "maybe", "three / after the scheme"],
    ["//api.github.com/", "maybe", "no scheme"],
    ["api.github.com/repos", "maybe", "not a URL"],
    [" https://api.github.com/", "maybe", "a leading space"],
    ["https://api.github.com/ ", "maybe", "a trailing space"],
    ["https://api.git\thub.com/", "maybe", "a tab the parser drops"],
    ["https://api.github.com/\n", "maybe", "a newline the parser drops"],
    ["https://api.github.com/a b", "maybe", "a space the parser encodes"],
    ["https://api.github.com/\u00e4", "maybe", "a raw non-ASCII path character the parser encodes"],
    ["https://api.github.com/?q=\u00e4", "maybe", "a raw non-ASCII query character the parser encodes"],
    ["javascript:alert(1)", "maybe", "not a host URL"],
    ["", "maybe", "empty"],
  ];
  it.each(cases)("%j is %s (%s)", (value, expected) => {
    expect(github(value)).toBe(expected);
  });

  it("ports: the effective port, written or default", () => {
    const tls = urlTest({ host: ["api.github.com"], port: [443] });
    expect(tls("https://api.github.com/")).toBe("certain");
    expect(tls("https://api.github.com:443/")).toBe("certain");
    expect(tls("https://api.github.com:8443/")).toBe("no");
    expect(tls("http://api.github.com/")).toBe("no");
    expect(tls("http://api.github.com:443/")).toBe("certain");
  });

  it("IP addresses: dotted decimal is certain; other spellings of the same address are a maybe", () => {
    const local = urlTest({ host: ["127.0.0.1"] });
    expect(local("http://127.0.0.1/")).toBe("certain");
    expect(local("http://0x7f.1/")).toBe("maybe");
    expect(local("http://2130706433/")).toBe("maybe");
    expect(local("http://0177.0.0.1/")).toBe("maybe");
    expect(local("http://127.1/")).toBe("maybe");
    expect(local("http://127.0.0.2/")).toBe("no");
    expect(local("http://[::1]/")).toBe("no");
    expect(local("http://[0:0::1]/")).toBe("maybe");
  });

  it("IP literals: every spelling of a denied address matches; only the canonical one is certain", () => {
    // A deny on the loopback or the metadata address: each spelling reaches it (IPv4-mapped, -compatible and
    // -translated IPv6, NAT64, 6to4, Teredo, ISATAP, and the IPv4 spellings the parser reads as dotted decimal).
    const deny = urlTest({ host: ["127.0.0.1", "169.254.169.254"] });
    for (const url of [
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:7f00:1]/",
      "http://[0:0:0:0:0:ffff:a9fe:a9fe]/",
      "http://[::ffff:a9fe:a9fe]/latest/meta-data/",
      "http://[::127.0.0.1]/",
      "http://[::7f00:1]/",
      "http://[::ffff:0:7f00:1]/",
      "http://[64:ff9b::7f00:1]/",
      "http://[64:ff9b::169.254.169.254]/",
      "http://[64:ff9b:1::a9fe:a9fe]/",
      "http://[2002:a9fe:a9fe::]/",
      "http://[2002:7f00:1::1]/",
      "http://[2001:0:7f00:1::]/",
      "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
      "http://[fe80::5efe:7f00:1]/",
      "http://[2001:db8::200:5efe:a9fe:a9fe]/",
      "http://2130706433/",
      "http://0x7f.1/",
      "http://0177.0.0.1/",
      "http://127.1/",
      "http://0x7f000001/",
      "http://169.254.43518/",
      "http://0xa9.0xfe.0xa9.0xfe/",
    ])
      expect(deny(url), url).toBe("maybe");
    expect(deny("http://127.0.0.1/")).toBe("certain");
    expect(deny("http://169.254.169.254/latest")).toBe("certain");
    // Other addresses, embedded or not, are not these.
    for (const url of [
      "http://[::1]/",
      "http://[::ffff:7f00:2]/",
      "http://[2002:a9fe:a9ff::]/",
      "http://[::]/",
    ])
      expect(deny(url), url).toBe("no");
  });

  it("IP literals in rules are canonicalised: an IPv6 rule that embeds an IPv4 address names it too", () => {
    for (const written of [
      "[::ffff:7f00:1]",
      "[::ffff:127.0.0.1]",
      "::FFFF:127.0.0.1",
      "[0:0:0:0:0:ffff:7f00:1]",
    ]) {
      const rule = urlTest({ host: written });
      // The IPv4 address in its canonical form is certain; the IPv6 literal itself embeds it: never certain.
      expect(rule("http://127.0.0.1/"), written).toBe("certain");
      expect(rule("http://[::ffff:7f00:1]/"), written).toBe("maybe");
      expect(rule("http://[::7f00:1]/"), written).toBe("maybe");
      expect(rule("http://127.0.0.2/"), written).toBe("no");
    }
    const loopback6 = urlTest({ host: "[::1]" });
    expect(loopback6("http://[::1]:8080/")).toBe("certain");
    expect(loopback6("http://[0:0::1]/")).toBe("maybe");
    expect(loopback6("http://127.0.0.1/")).toBe("no");
    const nat64 = urlTest({ host: "64:ff9b::a9fe:a9fe" });
    expect(nat64("http://169.254.169.254/")).toBe("certain");
    expect(nat64("http://[2002:a9fe:a9fe::1]/")).toBe("maybe");
  });

  it("*.example.com: any subdomain, at any depth, never the apex", () => {
    const python = urlTest({ host: ["*.python.org"] });
    expect(python("https://docs.python.org/3/")).toBe("certain");
    expect(python("https://a.b.python.org/")).toBe("certain");
    expect(python("https://python.org/")).toBe("no");
    expect(python("https://evilpython.org/")).toBe("no");
    expect(python("https://docs.python.org.evil.com/")).toBe("no");
    expect(python("https://docs.python.org./")).toBe("maybe");
  });

  it("an internationalised host: compared in its ASCII form; a single-script label is trusted", () => {
    const books = urlTest({ host: ["bücher.de"] });
    expect(books("https://bücher.de/")).toBe("certain");
    expect(books("https://xn--bcher-kva.de/")).toBe("certain");
    expect(books("https://BÜCHER.de/")).toBe("certain");
    expect(books("https://bucher.de/")).toBe("no");
    expect(urlTest({ host: ["例え.jp"] })("https://例え.jp/")).toBe("certain");
  });

  it("path: a glob on the decoded path; encoded separators, double slashes and case-only matches are a maybe", () => {
    const repos = urlTest({ host: ["api.github.com"], path: ["/repos/**"] });
    expect(repos("https://api.github.com/repos/a/b")).toBe("certain");
    expect(repos("https://api.github.com/repos")).toBe("certain");
    expect(repos("https://api.github.com/repos/")).toBe("certain");
    expect(repos("https://api.github.com/user")).toBe("no");
    expect(repos("https://api.github.com")).toBe("no");
    expect(repos("https://api.github.com/%72epos/x")).toBe("certain");
    expect(repos("https://api.github.com/repos%2F..%2Fuser")).toBe("maybe");
    expect(repos("https://api.github.com/repos/%252e%252e/user")).toBe("maybe");
    expect(repos("https://api.github.com/repos%5C..%5Cuser")).toBe("maybe");
    expect(repos("https://api.github.com/repos//x")).toBe("maybe");
    expect(repos("https://api.github.com/Repos/x")).toBe("maybe");
    expect(repos("https://api.github.com/repos/%ff")).toBe("maybe");
    expect(repos("https://api.github.com/repos/%00")).toBe("maybe");
    const anywhere = urlTest({ host: ["a.com"], path: ["/**"] });
    expect(anywhere("https://a.com")).toBe("certain");
    expect(anywhere("https://a.com/x/y")).toBe("certain");
    const root = urlTest({ host: ["a.com"], path: ["/"] });
    expect(root("https://a.com")).toBe("certain");
    expect(root("https://a.com/x")).toBe("no");
  });

  it("query keys: every key must be listed; a key a server may decode differently is a maybe", () => {
    const paged = urlTest({ host: ["api.github.com"], query: { keys: ["page", "per_page"] } });
    expect(paged("https://api.github.com/x")).toBe("certain");
    expect(paged("https://api.github.com/x?")).toBe("certain");
    expect(paged("https://api.github.com/x?page=2&per_page=10")).toBe("certain");
    expect(paged("https://api.github.com/x?page")).toBe("certain");
    expect(paged("https://api.github.com/x?page=2&token=x")).toBe("no");
    expect(paged("https://api.github.com/x?%70age=2")).toBe("maybe");
    expect(paged("https://api.github.com/x?pa+ge=2")).toBe("maybe");
    expect(paged("https://api.github.com/x?page=2;token=x")).toBe("maybe");
  });
});

describe("url: compiling", () => {
  const problems = (spec: unknown) => {
    const compiled = compileUrl(spec as UrlSpec);
    return compiled.ok
      ? []
      : compiled.problems.map((p) => `${p.key}${p.index === undefined ? "" : `[${p.index}]`}: ${p.message}`);
  };
  it("refuses what no URL can match, saying what to write instead", () => {
    expect(problems({})).toEqual(["url: url needs at least one of scheme, host, port, path, query"]);
    expect(problems({ hots: ["a.com"] })).toEqual([
      'url: unknown url key "hots"; use scheme, host, port, path, query',
    ]);
    expect(problems({ scheme: ["https:"] })).toEqual([
      'scheme[0]: "https:" is not a scheme name; write "https"',
    ]);
    expect(problems({ scheme: ["mailto"] })[0]).toMatch(
      /^scheme\[0\]: scheme "mailto" has no host to compare/,
    );
    expect(problems({ host: ["https://a.com/"] })[0]).toMatch(/not a host name: write the host alone/);
    expect(problems({ host: ["a.*.com"] })[0]).toMatch(/"\*" that is not the whole first label/);
    expect(problems({ host: ["*.com"] })[0]).toMatch(/subdomains of a top-level domain/);
    expect(problems({ host: ["0x7f.1"] })[0]).toMatch(/write it as 127\.0\.0\.1/);
    expect(problems({ host: ["\u0430pi.github.com"] })[0]).toMatch(/Cyrillic letters/);
    expect(problems({ port: [70000] })).toEqual(["port[0]: port 70000 is not an integer from 0 to 65535"]);
    expect(problems({ path: ["repos/**"] })[0]).toMatch(/must start with "\/"/);
    expect(problems({ path: ["/a//b"] })[0]).toMatch(/^path\[0\]: invalid path glob/);
    expect(problems({ query: { key: ["a"] } })[0]).toMatch(/query needs keys/);
  });
  it("accepts one value where a list is usual, and hosts in any case or with a trailing dot", () => {
    const one = urlTest({ scheme: "HTTPS", host: "API.GitHub.com.", port: 443, path: "/x" });
    expect(one("https://api.github.com/x")).toBe("certain");
  });
});

describe("url: host labels and punycode", () => {
  it("decodes punycode as RFC 3492's samples say", () => {
    expect(decodePunycode("bcher-kva")).toBe("bücher");
    expect(decodePunycode("pi-6kc")).toBe("\u0430pi");
    expect(decodePunycode("pi-7kc")).toBe("p\u0430i");
    expect(decodePunycode("r8jz45g")).toBe("例え");
    expect(decodePunycode("!!")).toBeUndefined();
    expect(decodePunycode("abc-")).toBe("abc");
  });
  it("trusts plain ASCII and single-script labels; flags look-alike scripts, mixtures and fake punycode", () => {
    expect(hostLabelProblem("github")).toBeUndefined();
    expect(hostLabelProblem("xn--bcher-kva")).toBeUndefined();
    expect(hostLabelProblem("xn--pi-6kc")).toMatch(/Cyrillic/);
    expect(hostLabelProblem("xn--abc-")).toMatch(/plain ASCII/);
    expect(hostLabelProblem("xn--!!")).toMatch(/not valid punycode/);
    // Latin and Thai in one label.
    const mixed = new URL("http://a\u0e01.com/").hostname.split(".")[0] as string;
    expect(hostLabelProblem(mixed)).toMatch(/mixes scripts/);
    const dotless = new URL("http://g\u0131thub.com/").hostname.split(".")[0] as string;
    expect(hostLabelProblem(dotless)).toMatch(/looks like an ASCII letter/);
  });
});

// Pieces of URLs, covering every character class the reader treats specially; each piece is mostly a clean
// one, so that certain matches are common too.
const piece = (clean: readonly string[], hostile: readonly string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...clean) },
    { weight: 1, arbitrary: fc.constantFrom(...hostile) },
  );
const schemeArb = piece(["https", "http", "HTTPS"], ["Https", "ftp", "ws", "file", "javascript", "h\ttps"]);
const separatorArb = piece(["://"], [":", ":/", ":///", ":\\\\", ":/\\"]);
const userinfoArb = piece([""], ["user@", "u:p@", "@", "api.github.com@", "a%40b@"]);
const hostArb = piece(
  [
    "api.github.com",
    "API.GitHub.com",
    "docs.python.org",
    "a.b.python.org",
    "127.0.0.1",
    "bücher.de",
    "xn--bcher-kva.de",
    "python.org",
    "evil.com",
  ],
  [
    "api.github.com.",
    "api.github.com.evil.com",
    "\u0430pi.github.com",
    "xn--pi-6kc.github.com",
    "api%2egithub.com",
    "0x7f.1",
    "2130706433",
    "[::1]",
    "\uff41pi.github.com",
    "api.github.com\u3002evil.com",
    "",
  ],
);
const portArb = piece(["", ":443", ":80"], [":8443", ":0443", ":", ":99999"]);
const segmentArb = piece(
  ["repos", "x", "%C3%A4", "@evil.com"],
  ["Repos", "..", ".", "%2e%2e", "%2E", "%2F", "%5C", "%252e", "", "a b", "ä", "%ff", "a\\b", "a\tb"],
);
const pathArb = fc
  .tuple(piece(["/repos"], ["", "/Repos", "/user"]), fc.array(segmentArb, { maxLength: 3 }))
  .map(([first, segments]) => first + segments.map((s) => `/${s}`).join(""));
const queryArb = piece(
  ["", "?", "?page=1", "?page=1&per_page=2"],
  ["?token=x", "?%70age=1", "?a=1;b=2", "?q=ä", "?pa+ge=1"],
);
const fragmentArb = piece(["", "#x"], ["#/../y", "#a b"]);
const spaceArb = piece([""], [" ", "\n", "\t", "\u0000"]);

const urlArb = fc
  .tuple(
    spaceArb,
    schemeArb,
    separatorArb,
    userinfoArb,
    hostArb,
    portArb,
    pathArb,
    queryArb,
    fragmentArb,
    spaceArb,
  )
  .map((parts) => parts.join(""));

const SPEC: UrlSpec = {
  scheme: ["https", "http"],
  host: ["api.github.com", "*.python.org", "127.0.0.1", "bücher.de"],
  port: [443, 80],
  path: ["/repos/**"],
  query: { keys: ["page", "per_page"] },
};
const spec = lazyUrlTest(SPEC);

/** The oracle's reading: what Node's URL says the value is, in the words of the spec above. */
function oracleAllows(value: string): boolean {
  const url = new URL(value);
  const scheme = url.protocol.slice(0, -1);
  const host = url.hostname.replace(/\.$/, "");
  const port = url.port === "" ? (scheme === "https" ? 443 : 80) : Number(url.port);
  let path = "";
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    // Not UTF-8: no allowed path.
  }
  const keys = [...new URLSearchParams(url.search).keys()];
  return (
    (scheme === "https" || scheme === "http") &&
    url.username === "" &&
    url.password === "" &&
    (host === "api.github.com" ||
      host === "127.0.0.1" ||
      host === "xn--bcher-kva.de" ||
      (host.endsWith(".python.org") && host !== ".python.org")) &&
    (port === 443 || port === 80) &&
    (path === "/repos" || path.startsWith("/repos/")) &&
    keys.every((key) => key === "page" || key === "per_page")
  );
}

describe("url: differential against Node's URL", () => {
  it("the generator reaches every answer often (at least 5% each), so the properties below are not vacuous", () => {
    const counts = new Map<string, number>();
    for (const value of fc.sample(urlArb, 3000)) counts.set(spec(value), (counts.get(spec(value)) ?? 0) + 1);
    for (const answer of ANSWER) expect(counts.get(answer) ?? 0, answer).toBeGreaterThanOrEqual(150);
  });

  it("a certain match is a URL that Node's parser reads as exactly an allowed scheme, host, port, path and query keys, with the host as written", () => {
    fc.assert(
      fc.property(urlArb, (value) => {
        if (spec(value) !== "certain") return;
        expect(oracleAllows(value)).toBe(true);
        const url = new URL(value);
        // The host a person reads in the string is the host the parser connects to.
        const written = value.slice(value.indexOf("://") + 3).split(/[/?#]/)[0] as string;
        expect(written.includes("@")).toBe(false);
        expect(new URL(`http://${written.replace(/:\d*$/, "")}/`).hostname).toBe(url.hostname);
      }),
      { numRuns: 5000 },
    );
  });

  it("a certain no is a URL that Node's parser reads as outside the spec", () => {
    fc.assert(
      fc.property(urlArb, (value) => {
        if (spec(value) !== "no") return;
        expect(oracleAllows(value)).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  it("a certain answer does not change when the parser's own spelling of the URL is asked instead", () => {
    fc.assert(
      fc.property(urlArb, (value) => {
        const answer = spec(value);
        if (answer === "maybe") return;
        expect(spec(new URL(value).href)).toBe(answer);
      }),
      { numRuns: 5000 },
    );
  });

  it("a string that is not a URL is a maybe, never certain either way", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (value) => {
        if (URL.canParse(value)) return;
        expect(spec(value)).toBe("maybe");
      }),
      { numRuns: 2000 },
    );
  });
});
