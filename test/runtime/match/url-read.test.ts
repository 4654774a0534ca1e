/**
 * Reading a URL against a compiled `url` operator: each way a URL is certain, certainly not, or a maybe, one
 * example per branch, for every scheme, port spelling, path encoding and query shape the reader treats apart.
 */
import { describe, expect, it } from "vitest";
import { compileUrl, type UrlSpec } from "../../../src/runtime/match/url.js";

const ANSWER = ["no", "certain", "maybe"] as const;

function urlTest(spec: UrlSpec): (value: string) => (typeof ANSWER)[number] {
  const compiled = compileUrl(spec);
  if (!compiled.ok) throw new Error(compiled.problems.map((p) => p.message).join("; "));
  return (value) => ANSWER[compiled.test(value)];
}

describe("url: what is read as written", () => {
  it("a special scheme with its host; anything else is a maybe", () => {
    const any = urlTest({ host: ["a.com"] });
    expect(any("http://a.com/")).toBe("certain");
    expect(any("ws://a.com/")).toBe("certain");
    expect(any("ftp://a.com/")).toBe("certain");
    expect(any("file://a.com/x")).toBe("certain");
    expect(any("foo://a.com/")).toBe("maybe");
    expect(any("git+ssh://a.com/")).toBe("maybe");
    expect(any("mailto:me@a.com")).toBe("maybe");
    expect(any("https://b.com/")).toBe("no");
    // A file URL without a host has the empty host, which no pattern names.
    expect(any("file:///etc/passwd")).toBe("no");
    expect(urlTest({ scheme: "file" })("file:///etc/passwd")).toBe("certain");
  });

  it("control characters, DEL and backslashes anywhere are a maybe", () => {
    const any = urlTest({ scheme: ["https", "http"] });
    for (const value of [
      "https://a.com/\u0000",
      "https://a.com/\u001f",
      "https://a.com/x y",
      "https://a.com/\u007f",
      "https://a.com/a\\b",
      "https://a.com\\b.com/",
      "\u0001https://a.com/",
      "https://a.com/\u0008",
    ])
      expect(any(value), JSON.stringify(value)).toBe("maybe");
    expect(any("https://a.com/~!$&'()*+,;=:@")).toBe("certain");
    // The parser keeps a backslash in a query or fragment as it is; a server may still read it as a separator.
    expect(any("https://a.com/?a\\b")).toBe("maybe");
    expect(any("https://a.com/#a\\b")).toBe("maybe");
    expect(any("https://a.com/\u0080")).toBe("maybe");
  });

  it("userinfo of any shape is a maybe, even when the parser drops it", () => {
    const any = urlTest({ scheme: "https" });
    for (const value of [
      "https://u@a.com/",
      "https://:p@a.com/",
      "https://u:@a.com/",
      "https://@a.com/",
      "https://:@a.com/",
      "https://a.com@b.com/",
    ])
      expect(any(value), value).toBe("maybe");
    expect(any("https://a.com/@b.com")).toBe("certain");
    expect(any("https://a.com/?@b.com")).toBe("certain");
    expect(any("https://a.com/#@b.com")).toBe("certain");
  });

  it("a host is certain only when the parser keeps it, up to case and IDNA", () => {
    const books = urlTest({ host: "bücher.de" });
    expect(books("https://BÜCHER.DE/")).toBe("certain");
    expect(books("https://Xn--Bcher-Kva.De/")).toBe("certain");
    // A soft hyphen, which IDNA removes: the parser reads bücher.de, a person another name.
    expect(books("https://bü\u00adcher.de/")).toBe("maybe");
    // A host with the same labels in another order, or one more.
    expect(books("https://de.bücher/")).toBe("no");
    expect(books("https://bücher.bücher.de/")).toBe("no");
    // Unicode and ASCII labels in one host: each is compared with the parser's label.
    expect(urlTest({ host: "bücher.example.de" })("https://Bücher.Example.de/")).toBe("certain");
    // A punycode label next to a Unicode one is not compared with its decoding: a maybe, never certain.
    const two = urlTest({ host: "bücher.bücher.de" });
    expect(two("https://bücher.xn--bcher-kva.de/")).toBe("maybe");
    expect(two("https://xn--bcher-kva.bücher.de/")).toBe("maybe");
    // A Unicode label whose punycode the parser gives, but another label that differs beyond case.
    expect(two("https://bücher.bücher.de\u3002/")).toBe("maybe");
    expect(two("https://bücher.bu\u0308cher.de/")).toBe("maybe");
  });

  it("a trailing dot, a look-alike label or a label that is not what it seems is a maybe", () => {
    const any = urlTest({ scheme: "https" });
    expect(any("https://a.com./")).toBe("maybe");
    expect(any("https://xn--pi-6kc.com/")).toBe("maybe");
    expect(any("https://a.xn--pi-6kc/")).toBe("maybe");
    expect(any("https://xn--abc-.com/")).toBe("maybe");
    expect(any("https://xn--bcher-kva.com/")).toBe("certain");
  });
});

describe("url: ports", () => {
  it("a written port must be plain decimal: the default, or the number the parser keeps", () => {
    const any = urlTest({ scheme: ["https", "http", "ws", "wss", "ftp"] });
    const certain = [
      "https://a.com:443/",
      "http://a.com:80/",
      "ws://a.com:80/",
      "wss://a.com:443/",
      "ftp://a.com:21/",
      "https://a.com:80/",
      "https://a.com:0/",
      "https://a.com:1/",
      "https://a.com:65535/",
      "http://a.com:8080",
    ];
    for (const value of certain) expect(any(value), value).toBe("certain");
    const maybe = [
      "https://a.com:00/",
      "https://a.com:0443/",
      "https://a.com:/",
      "https://a.com:+443/",
      "https://a.com:1e3/",
    ];
    for (const value of maybe) expect(any(value), value).toBe("maybe");
  });

  it("the effective port is the written one, else the scheme's default; a file URL has none", () => {
    const web = urlTest({ port: [80, 443] });
    expect(web("http://a.com/")).toBe("certain");
    expect(web("wss://a.com/")).toBe("certain");
    expect(web("ftp://a.com/")).toBe("no");
    expect(web("https://a.com:8443/")).toBe("no");
    expect(web("https://a.com:80/")).toBe("certain");
    expect(web("file://a.com/x")).toBe("no");
    expect(urlTest({ port: 21 })("ftp://a.com/")).toBe("certain");
    expect(urlTest({ port: 0 })("file://a.com/x")).toBe("no");
  });

  it("an IPv6 host's colons are not a port", () => {
    const local = urlTest({ port: [80, 8080] });
    expect(local("http://[::1]/")).toBe("certain");
    expect(local("http://[::1]:8080/")).toBe("certain");
    expect(local("http://[::1]:9090/")).toBe("no");
    expect(local("http://[::1]:/")).toBe("maybe");
  });
});

describe("url: paths", () => {
  it("what the parser would rewrite is a maybe, even without a path pattern", () => {
    const any = urlTest({ scheme: "https" });
    for (const value of [
      "https://a.com/a/../b",
      "https://a.com/a/./b",
      "https://a.com/a/%2e%2e",
      "https://a.com/%2E",
    ])
      expect(any(value), value).toBe("maybe");
    expect(any("https://a.com/a%2e/")).toBe("certain");
  });

  it("an encoded separator, escape or control, after one round of decoding, is a maybe", () => {
    const files = urlTest({ path: "/files/**" });
    for (const value of [
      "https://a.com/files/a%2fb",
      "https://a.com/files/a%2Fb",
      "https://a.com/files/a%5cb",
      "https://a.com/files/a%5Cb",
      "https://a.com/files/a%25b",
      "https://a.com/files/a%00b",
      "https://a.com/files/a%01b",
      "https://a.com/files/a%0Ab",
      "https://a.com/files/a%1fb",
      "https://a.com/files/a%7Fb",
      "https://a.com/files/%c3",
      "https://a.com/files/a/%2e%2e/b",
      "https://a.com/files/%2e%2e",
      "https://a.com/files/a/%2e/b",
      "https://a.com/files//b",
    ])
      expect(files(value), value).toBe("maybe");
    for (const value of [
      "https://a.com/files/a%20b",
      "https://a.com/files/%c3%a4",
      "https://a.com/files/a%2e",
      "https://a.com/files/...",
      "https://a.com/files/a/",
      "https://a.com/files/%7e",
    ])
      expect(files(value), value).toBe("certain");
    expect(files("https://a.com/other/%2fx")).toBe("maybe");
    expect(files("https://a.com/other/x")).toBe("no");
  });

  it("one trailing slash is dropped before the glob, the root path is kept", () => {
    const exact = urlTest({ path: ["/a", "/"] });
    expect(exact("https://a.com/a/")).toBe("certain");
    expect(exact("https://a.com/")).toBe("certain");
    expect(exact("https://a.com/a//")).toBe("maybe");
    expect(exact("https://a.com/b/")).toBe("no");
  });

  it("a match only when case is ignored is a maybe, whichever side has the capitals", () => {
    const upper = urlTest({ path: "/Repos/**" });
    expect(upper("https://a.com/Repos/x")).toBe("certain");
    expect(upper("https://a.com/repos/x")).toBe("maybe");
    expect(upper("https://a.com/REPOS/x")).toBe("maybe");
    expect(upper("https://a.com/users/x")).toBe("no");
    // The second glob decides when the first does not match.
    const two = urlTest({ path: ["/a", "/B"] });
    expect(two("https://a.com/B")).toBe("certain");
    expect(two("https://a.com/b")).toBe("maybe");
    expect(two("https://a.com/c")).toBe("no");
  });
});

describe("url: query keys", () => {
  it("every key, with or without a value, must be listed; empty parts are nothing", () => {
    const paged = urlTest({ query: { keys: ["page", "per_page"] } });
    for (const value of [
      "https://a.com/?page=1&&per_page=2",
      "https://a.com/?&page=1&",
      "https://a.com/?page&per_page",
      "https://a.com/?page=a=b",
      "https://a.com/#?token=1",
    ])
      expect(paged(value), value).toBe("certain");
    for (const value of [
      "https://a.com/?=1",
      "https://a.com/?page=1&token",
      "https://a.com/?token=1&%70age=1",
      "https://a.com/?Page=1",
      "https://a.com/?pag=1",
    ])
      expect(paged(value), value).toBe("no");
    for (const value of [
      "https://a.com/?page;token=1",
      "https://a.com/?%70age=1&page=2",
      "https://a.com/?page+=1",
    ])
      expect(paged(value), value).toBe("maybe");
  });
});

describe("url: odd but valid patterns", () => {
  it("an empty query key, listed, allows a part that starts with =", () => {
    const empty = urlTest({ query: { keys: [""] } });
    expect(empty("https://a.com/?=1")).toBe("certain");
    expect(empty("https://a.com/?a=1")).toBe("no");
  });
  it("a path glob whose lower-case form is no glob is compared exactly", () => {
    // [Z-a] is a range from Z to a; in lower case [z-a] runs backwards.
    const range = urlTest({ path: "/[Z-a]" });
    expect(range("https://a.com/_")).toBe("certain");
    expect(range("https://a.com/b")).toBe("no");
  });
});

describe("url: combining the parts", () => {
  it("any part certainly outside makes the URL certainly outside, whatever the others' maybes", () => {
    const spec = urlTest({
      scheme: "https",
      host: "a.com",
      port: 443,
      path: "/repos/**",
      query: { keys: ["page"] },
    });
    expect(spec("https://a.com/repos/x?page=1")).toBe("certain");
    expect(spec("http://a.com/repos/x?page=1")).toBe("no");
    expect(spec("https://b.com/repos/x?page=1")).toBe("no");
    expect(spec("https://a.com:8443/repos/x?page=1")).toBe("no");
    expect(spec("https://a.com/users?page=1")).toBe("no");
    expect(spec("https://a.com/repos/x?token=1")).toBe("no");
    // A path that is a maybe, with a query key certainly outside, and the other way round.
    expect(spec("https://a.com/repos/%2f?token=1")).toBe("no");
    expect(spec("https://a.com/Repos/x?token=1")).toBe("no");
    expect(spec("https://a.com/users?%70age=1")).toBe("no");
    // Maybes that nothing certain overrules.
    expect(spec("https://a.com/repos/%2f?page=1")).toBe("maybe");
    expect(spec("https://a.com/Repos/x?page=1")).toBe("maybe");
    expect(spec("https://a.com/repos/x?%70age=1")).toBe("maybe");
  });
});
