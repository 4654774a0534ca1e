/**
 * Compiling the `url` operator: every refusal with its message and place, and how each accepted pattern
 * reads (seen through the URLs it then matches).
 */
import { describe, expect, it } from "vitest";
import { compileUrl, type UrlSpec } from "../../../src/runtime/match/url.js";

/** The problems of a spec, as `key[index]: message`, or `[]` when it compiles. */
function problems(spec: unknown): string[] {
  const compiled = compileUrl(spec as UrlSpec);
  return compiled.ok
    ? []
    : compiled.problems.map((p) => `${p.key}${p.index === undefined ? "" : `[${p.index}]`}: ${p.message}`);
}

const ANSWER = ["no", "certain", "maybe"] as const;

function urlTest(spec: UrlSpec): (value: string) => (typeof ANSWER)[number] {
  const compiled = compileUrl(spec);
  if (!compiled.ok) throw new Error(compiled.problems.map((p) => p.message).join("; "));
  return (value) => ANSWER[compiled.test(value)];
}

describe("url: the operator's shape", () => {
  it("must be a mapping", () => {
    const message = "url: url needs a mapping of scheme, host, port, path or query";
    for (const spec of [null, undefined, "https://a.com/", 443, true, [], [{ host: "a.com" }]])
      expect(problems(spec), JSON.stringify(spec)).toEqual([message]);
  });
  it("names each unknown key, and says what a mapping with no key lacks", () => {
    expect(problems({})).toEqual(["url: url needs at least one of scheme, host, port, path, query"]);
    expect(problems({ hots: "a.com", Host: "b.com" })).toEqual([
      'url: unknown url key "hots"; use scheme, host, port, path, query',
      'url: unknown url key "Host"; use scheme, host, port, path, query',
    ]);
    expect(problems({ host: "a.com", prot: 1 })).toEqual([
      'url: unknown url key "prot"; use scheme, host, port, path, query',
    ]);
  });
  it("reports every problem of every key at once, each at its index", () => {
    expect(
      problems({
        scheme: ["https", "mailto", 5],
        host: ["a.com", "", "b.com/x"],
        port: [443, "80"],
        path: ["/ok", "nope"],
        query: { keys: ["a", 1] },
      }),
    ).toEqual([
      'scheme[1]: scheme "mailto" has no host to compare; url matches http, https, ws, wss, ftp, file URLs',
      'scheme[2]: "5" is not a scheme name',
      "host[1]: a host must be a non-empty string",
      'host[2]: "b.com/x" is not a host name: write the host alone, without scheme, port, path or userinfo',
      'port[1]: port "80" is not an integer from 0 to 65535',
      'path[1]: path glob "nope" must start with "/": a URL\'s path always does',
      "query: query key 1 must be a string",
    ]);
  });
});

describe("url: scheme", () => {
  it("refuses what is not a scheme name, with a hint for a trailing colon", () => {
    expect(problems({ scheme: "https:" })).toEqual([
      'scheme[0]: "https:" is not a scheme name; write "https"',
    ]);
    expect(problems({ scheme: "https://" })).toEqual(['scheme[0]: "https://" is not a scheme name']);
    for (const scheme of ["", "1http", "ht tp", "-http", "+a", "http_s", "ht:tp", "é"])
      expect(problems({ scheme }), scheme).toEqual([`scheme[0]: "${scheme}" is not a scheme name`]);
    expect(problems({ scheme: [null] })).toEqual(['scheme[0]: "null" is not a scheme name']);
  });
  it("refuses a scheme whose URLs have no host, however it is spelt", () => {
    for (const scheme of ["mailto", "data", "svn+ssh", "a.b-c", "Z9", "javascript"])
      expect(problems({ scheme }), scheme).toEqual([
        `scheme[0]: scheme "${scheme}" has no host to compare; url matches http, https, ws, wss, ftp, file URLs`,
      ]);
  });
  it("accepts the special schemes in any case, and compares them in lower case", () => {
    const cases: readonly [string, string][] = [
      ["http", "http://a.com/"],
      ["HTTPS", "https://a.com/"],
      ["ws", "ws://a.com/"],
      ["Wss", "wss://a.com/"],
      ["ftp", "ftp://a.com/"],
      ["file", "file://a.com/x"],
    ];
    for (const [scheme, url] of cases) {
      const test = urlTest({ scheme });
      expect(test(url), scheme).toBe("certain");
      expect(test(url.toUpperCase().replace("A.COM", "a.com")), scheme).toBe("certain");
      expect(test(scheme.toLowerCase() === "http" ? "https://a.com/" : "http://a.com/"), scheme).toBe("no");
    }
  });
});

describe("url: host patterns", () => {
  const hostProblem = (host: unknown) => problems({ host });
  it("refuses an empty or non-string host", () => {
    for (const host of ["", 5, null, ["a.com", 7]])
      expect(hostProblem(host).at(-1), JSON.stringify(host)).toMatch(
        /^host\[\d\]: a host must be a non-empty string$/,
      );
  });
  it("refuses a host with a scheme, port, path, query, fragment, userinfo, space or escape", () => {
    for (const host of [
      "https://a.com",
      "a.com:443",
      "a.com/x",
      "a\\b.com",
      "a.com?x",
      "a.com#x",
      "me@a.com",
      "a b.com",
      "a\tb.com",
      "a%41.com",
      "a[b.com",
      "a]b.com",
    ])
      expect(hostProblem(host), host).toEqual([
        `host[0]: "${host}" is not a host name: write the host alone, without scheme, port, path or userinfo`,
      ]);
  });
  it("accepts an IPv6 address in any spelling, in brackets or not, and refuses an invalid one", () => {
    for (const host of ["[::1]", "::1", "[0:0:0:0:0:0:0:1]", "[::FFFF:127.0.0.1]", "64:ff9b::a9fe:a9fe"])
      expect(hostProblem(host), host).toEqual([]);
    for (const host of ["[::1", "::1]", "[1::2::3]", "[12345::]", "1:2:3:4:5:6:7:8:9"])
      expect(hostProblem(host), host).toEqual([`host[0]: "${host}" is not a valid IPv6 address`]);
  });
  it('refuses a "*" anywhere but as the whole first label', () => {
    for (const host of ["*", "a.*.com", "*a.com", "a*.com", "*.*.com", "**.com", "*.a.com*"])
      expect(hostProblem(host), host).toEqual([
        `host[0]: "${host}" has a "*" that is not the whole first label; write "*.example.com" for its subdomains`,
      ]);
  });
  it("refuses what the URL parser refuses as a host", () => {
    for (const host of ["a<b.com", "a|b.com", "a^b", "256.0.0.1", "1.2.3.4.5", "xn--a.com"])
      expect(hostProblem(host), host).toEqual([`host[0]: "${host}" is not a valid host name`]);
  });
  it("refuses subdomains of a top-level domain, even with a trailing dot", () => {
    for (const host of ["*.com", "*.COM.", "*.localhost"])
      expect(hostProblem(host), host).toEqual([
        `host[0]: "${host}" matches subdomains of a top-level domain; name a registered domain`,
      ]);
  });
  it("refuses an IP address in any spelling but dotted decimal, naming that spelling", () => {
    // Each octet form (250-255, 200-249, 100-199, 10-99, 0-9) first and in the later octets.
    const addresses: readonly [string, string][] = [
      ["0xfff9c763", "255.249.199.99"],
      ["4190593801", "249.199.99.9"],
      ["0xc7.99.9.255", "199.99.9.255"],
      ["99.9.0xff.249", "99.9.255.249"],
      ["9.255.249.0307", "9.255.249.199"],
      ["0", "0.0.0.0"],
    ];
    for (const [spelling, dotted] of addresses) {
      expect(hostProblem(spelling), spelling).toEqual([
        `host[0]: "${spelling}" is an IP address in an unusual spelling; write it as ${dotted} (dotted decimal)`,
      ]);
      expect(hostProblem(`*.${dotted}`), dotted).toEqual([
        `host[0]: "*.${dotted}" puts "*." before an IP address, which has no subdomains`,
      ]);
      expect(urlTest({ host: dotted })(`http://${dotted}/`), dotted).toBe("certain");
    }
  });
  it("reads a host with IP-like labels before a name as a name", () => {
    const test = urlTest({ host: "*.1.2.3.4.com" });
    expect(test("https://x.1.2.3.4.com/")).toBe("certain");
    expect(test("https://1.2.3.4.com/")).toBe("no");
    expect(urlTest({ host: "1.2.3.4.com" })("https://1.2.3.4.com/")).toBe("certain");
  });
  it("refuses a label that imitates another in any position, saying which", () => {
    expect(hostProblem("api.g\u0456thub.com")).toEqual([
      'host[0]: "api.g\u0456thub.com": "xn--gthub-n2e" (g\u0456thub) has Cyrillic letters, which look like Latin ones',
    ]);
    expect(hostProblem("*.xn--abc-.com")).toEqual([
      'host[0]: "*.xn--abc-.com": "xn--abc-" is punycode for plain ASCII "abc"',
    ]);
  });
  it("reads a host's letters as IDNA does, not as upper case would", () => {
    // IDNA keeps ß (straße.de is its own name), and keeps the dotless ı, which imitates i.
    const strasse = urlTest({ host: "straße.de" });
    expect(strasse("https://straße.de/")).toBe("certain");
    expect(strasse("https://strasse.de/")).toBe("no");
    expect(problems({ host: "gıthub.com" })).toEqual([
      'host[0]: "gıthub.com": "xn--gthub-n4a" (gıthub) has "ı", which looks like an ASCII letter',
    ]);
  });
  it("matches a host of one Unicode label", () => {
    expect(urlTest({ host: "例え" })("https://例え/")).toBe("certain");
  });
  it("never matches a host that is only the suffix, or a word JavaScript gives an absent value", () => {
    const test = urlTest({ host: ["*.a.com", "b.com"] });
    expect(test("https://.a.com/")).toBe("no");
    expect(test("https://x.a.com/")).toBe("certain");
    expect(test("https://undefined/")).toBe("no");
    expect(test("https://x.undefined/")).toBe("no");
  });
  it("reads a trailing dot, upper case and Unicode as the parser does", () => {
    const test = urlTest({ host: ["Bücher.DE.", "*.Example.org."] });
    expect(test("https://xn--bcher-kva.de/")).toBe("certain");
    expect(test("https://bücher.de/")).toBe("certain");
    expect(test("https://www.example.org/")).toBe("certain");
    expect(test("https://example.org/")).toBe("no");
    expect(test("https://bücher.de.example/")).toBe("no");
    // Only one trailing dot is dropped; two make an empty label, which no host has.
    expect(urlTest({ host: "a.com.." })("https://a.com/")).toBe("no");
  });
  it("matches a subdomain only by whole labels", () => {
    const test = urlTest({ host: "*.a.com" });
    expect(test("https://b.a.com/")).toBe("certain");
    expect(test("https://ba.com/")).toBe("no");
    expect(test("https://a.com/")).toBe("no");
    expect(test("https://b.a.co/")).toBe("no");
  });
});

describe("url: port, path and query patterns", () => {
  it("refuses a port that is not an integer from 0 to 65535, and accepts both ends", () => {
    for (const port of ["443", 1.5, -1, 65536, Number.NaN, null])
      expect(problems({ port }), String(port)).toEqual([
        `port[0]: port ${JSON.stringify(port)} is not an integer from 0 to 65535`,
      ]);
    expect(urlTest({ port: 0 })("http://a.com:0/")).toBe("certain");
    expect(urlTest({ port: 65535 })("http://a.com:65535/")).toBe("certain");
    expect(urlTest({ port: [1, 65535] })("http://a.com:65534/")).toBe("no");
  });
  it("refuses a path glob that is not a string, does not start with /, or is not a glob", () => {
    expect(problems({ path: [5] })).toEqual([
      'path[0]: path glob 5 must start with "/": a URL\'s path always does',
    ]);
    expect(problems({ path: "" })).toEqual([
      'path[0]: path glob "" must start with "/": a URL\'s path always does',
    ]);
    expect(problems({ path: ["/a", "/a//b"] })[0]).toMatch(/^path\[1\]: invalid path glob "\/a\/\/b": ./);
  });
  it("refuses a query that is not a mapping with a list of string keys", () => {
    const needsKeys = "query: query needs keys: a list of the query keys a URL may have";
    for (const query of [null, "page", ["page"], {}, { keys: "page" }, { key: ["page"] }])
      expect(problems({ query }), JSON.stringify(query)).toEqual([needsKeys]);
    expect(problems({ query: { keys: ["a"], values: ["b"] } })).toEqual([
      'query: unknown query key "values"; use keys',
    ]);
    expect(problems({ query: { keys: [null, "a", 2] } })).toEqual([
      "query: query key null must be a string",
      "query: query key 2 must be a string",
    ]);
  });
  it("accepts an empty list of query keys: a URL with any query key is then outside", () => {
    const test = urlTest({ query: { keys: [] } });
    expect(test("https://a.com/x")).toBe("certain");
    expect(test("https://a.com/x?a=1")).toBe("no");
  });
});
