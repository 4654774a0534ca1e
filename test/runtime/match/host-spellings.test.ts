/**
 * Oracle for the host canonicaliser (src/runtime/match/host.ts): spellings of the same address written out by
 * hand, each with the host it must be read as and the IPv4 addresses it must be known to reach. None is derived
 * from the code under test; the URL parser's own answers (Node's `URL`) are not used to build expectations.
 */
import { describe, expect, it } from "vitest";
import { embeddedIpv4, ipv6Pieces, readHost } from "../../../src/runtime/match/host.js";
import { compileUrl } from "../../../src/runtime/match/url.js";

describe("IPv4 addresses in any spelling are one host", () => {
  it.each([
    "127.0.0.1",
    "2130706433",
    "0x7f000001",
    "0X7F000001",
    "0x7f.1",
    "0x7f.0.0.1",
    "0x7F.0x0.0x0.0x1",
    "0177.0.0.1",
    "0177.1",
    "017700000001",
    "127.1",
    "127.0.1",
    "127.000.000.001",
  ])("%s is 127.0.0.1", (host) => {
    expect(readHost(host)).toEqual({ ascii: "127.0.0.1", kind: "ipv4", embedded: [], names: ["127.0.0.1"] });
  });

  it.each([
    "169.254.169.254",
    "2852039166",
    "0xa9fea9fe",
    "0xA9.0xFE.0xA9.0xFE",
    "0251.0376.0251.0376",
    "169.254.43518",
    "169.16689662",
  ])("%s is 169.254.169.254", (host) => {
    expect(readHost(host)).toEqual({
      ascii: "169.254.169.254",
      kind: "ipv4",
      embedded: [],
      names: ["169.254.169.254"],
    });
  });

  it.each([
    ["0.0.0.0", "0.0.0.0"],
    ["0", "0.0.0.0"],
    ["255.255.255.255", "255.255.255.255"],
    ["4294967295", "255.255.255.255"],
    ["10.0.0.9", "10.0.0.9"],
    ["192.168.1.200", "192.168.1.200"],
    ["100.64.0.1", "100.64.0.1"],
    ["249.250.251.252", "249.250.251.252"],
  ])("%s is the IPv4 address %s", (host, ascii) => {
    expect(readHost(host)).toEqual({ ascii, kind: "ipv4", embedded: [], names: [ascii] });
  });

  it("a url rule for the address matches every spelling of it", () => {
    const compiled = compileUrl({ scheme: ["http"], host: ["169.254.169.254"] });
    if (!compiled.ok) throw new Error("compile");
    for (const url of [
      "http://169.254.169.254/latest",
      "http://2852039166/latest",
      "http://0xa9fea9fe/",
      "http://0251.0376.0251.0376/",
      "http://[::ffff:169.254.169.254]/",
      "http://[::ffff:a9fe:a9fe]/",
      "http://[64:ff9b::a9fe:a9fe]/",
      "http://[2002:a9fe:a9fe::1]/",
    ]) {
      expect(compiled.test(url), url).not.toBe(0);
    }
    expect(compiled.test("http://169.254.169.253/")).toBe(0);
    expect(compiled.test("http://[::ffff:a9fe:a9fd]/")).toBe(0);
  });
});

describe("IPv6 addresses, and the IPv4 address each family embeds", () => {
  it.each([
    // IPv4-mapped ::ffff:0:0/96
    ["[::ffff:127.0.0.1]", "[::ffff:7f00:1]", ["127.0.0.1"]],
    ["[::ffff:7f00:1]", "[::ffff:7f00:1]", ["127.0.0.1"]],
    ["[0:0:0:0:0:ffff:7f00:1]", "[::ffff:7f00:1]", ["127.0.0.1"]],
    ["[::FFFF:7F00:0001]", "[::ffff:7f00:1]", ["127.0.0.1"]],
    ["[0000:0000:0000:0000:0000:ffff:127.0.0.1]", "[::ffff:7f00:1]", ["127.0.0.1"]],
    ["[::ffff:169.254.169.254]", "[::ffff:a9fe:a9fe]", ["169.254.169.254"]],
    ["[::ffff:0.0.0.0]", "[::ffff:0:0]", ["0.0.0.0"]],
    ["[::fffe:7f00:1]", "[::fffe:7f00:1]", []],
    ["[1::ffff:7f00:1]", "[1::ffff:7f00:1]", []],
    ["[0:0:0:0:1:ffff:7f00:1]", "[::1:ffff:7f00:1]", []],
    // IPv4-compatible ::/96, but the loopback ::1; :: is 0.0.0.0
    ["[::127.0.0.1]", "[::7f00:1]", ["127.0.0.1"]],
    ["[::a9fe:a9fe]", "[::a9fe:a9fe]", ["169.254.169.254"]],
    ["[::]", "[::]", ["0.0.0.0"]],
    ["[::2]", "[::2]", ["0.0.0.2"]],
    ["[::1:0]", "[::1:0]", ["0.1.0.0"]],
    ["[::1:1]", "[::1:1]", ["0.1.0.1"]],
    ["[::1]", "[::1]", []],
    ["[0:0:0:0:0:1:7f00:1]", "[::1:7f00:1]", []],
    // IPv4-translated ::ffff:0:0:0/96
    ["[::ffff:0:7f00:1]", "[::ffff:0:7f00:1]", ["127.0.0.1"]],
    ["[::ffff:1:7f00:1]", "[::ffff:1:7f00:1]", []],
    ["[::1:0:7f00:1]", "[::1:0:7f00:1]", []],
    ["[0:0:0:1:ffff:0:7f00:1]", "[::1:ffff:0:7f00:1]", []],
    // NAT64: 64:ff9b::/96 and the local-use 64:ff9b:1::/48
    ["[64:ff9b::7f00:1]", "[64:ff9b::7f00:1]", ["127.0.0.1"]],
    ["[64:ff9b::127.0.0.1]", "[64:ff9b::7f00:1]", ["127.0.0.1"]],
    ["[64:ff9b:1::7f00:1]", "[64:ff9b:1::7f00:1]", ["127.0.0.1"]],
    ["[64:ff9b:1:2:3:4:7f00:1]", "[64:ff9b:1:2:3:4:7f00:1]", ["127.0.0.1"]],
    ["[64:ff9b:2::7f00:1]", "[64:ff9b:2::7f00:1]", []],
    ["[64:ff9b:0:1::7f00:1]", "[64:ff9b:0:1::7f00:1]", []],
    ["[64:ff9b:0:0:1:0:7f00:1]", "[64:ff9b::1:0:7f00:1]", []],
    ["[64:ff9b:0:0:0:1:7f00:1]", "[64:ff9b::1:7f00:1]", []],
    ["[65:ff9b::7f00:1]", "[65:ff9b::7f00:1]", []],
    ["[64:ff9a::7f00:1]", "[64:ff9a::7f00:1]", []],
    // 6to4 2002::/16
    ["[2002:7f00:1::]", "[2002:7f00:1::]", ["127.0.0.1"]],
    ["[2002:a9fe:a9fe::1]", "[2002:a9fe:a9fe::1]", ["169.254.169.254"]],
    ["[2003:7f00:1::]", "[2003:7f00:1::]", []],
    // Teredo 2001::/32: the server, and the client inverted
    ["[2001:0:7f00:1::]", "[2001:0:7f00:1::]", ["127.0.0.1", "255.255.255.255"]],
    ["[2001:0:a9fe:a9fe::80ff:fffe]", "[2001:0:a9fe:a9fe::80ff:fffe]", ["169.254.169.254", "127.0.0.1"]],
    [
      "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
      "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
      ["65.54.227.120", "127.0.0.1"],
    ],
    ["[2001:1::7f00:1]", "[2001:1::7f00:1]", []],
    ["[2001:db8::1]", "[2001:db8::1]", []],
    // ISATAP: an interface identifier 0:5efe or 200:5efe (the universal/local and group bits ignored)
    ["[fe80::5efe:7f00:1]", "[fe80::5efe:7f00:1]", ["127.0.0.1"]],
    ["[fe80::200:5efe:7f00:1]", "[fe80::200:5efe:7f00:1]", ["127.0.0.1"]],
    ["[fe80::100:5efe:7f00:1]", "[fe80::100:5efe:7f00:1]", ["127.0.0.1"]],
    ["[fe80::300:5efe:7f00:1]", "[fe80::300:5efe:7f00:1]", ["127.0.0.1"]],
    ["[2001:db8::200:5efe:a9fe:a9fe]", "[2001:db8::200:5efe:a9fe:a9fe]", ["169.254.169.254"]],
    ["[fe80::400:5efe:7f00:1]", "[fe80::400:5efe:7f00:1]", []],
    ["[fe80::1:5efe:7f00:1]", "[fe80::1:5efe:7f00:1]", []],
    ["[fe80::5eff:7f00:1]", "[fe80::5eff:7f00:1]", []],
    ["[fe80::1]", "[fe80::1]", []],
  ])("%s is %s and reaches %j", (host, ascii, embedded) => {
    expect(readHost(host)).toEqual({ ascii, kind: "ipv6", embedded, names: [ascii, ...embedded] });
  });
});

describe("host names", () => {
  it.each([
    ["API.GitHub.com", "api.github.com"],
    ["localhost", "localhost"],
    ["LOCALHOST", "localhost"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["1.2.3.4.example", "1.2.3.4.example"],
    ["metadata.google.internal", "metadata.google.internal"],
    ["example.com.", "example.com."],
  ])("%s is %s", (host, ascii) => {
    expect(readHost(host)).toEqual({ ascii, kind: "name", embedded: [], names: [ascii] });
  });
});

describe("what is not a host alone is refused", () => {
  it.each([
    "",
    "a b",
    "a\tb",
    "a\nb",
    "a/b",
    "a\\b",
    "a?b",
    "a#b",
    "a@b",
    "a%41",
    "a:80",
    "127.0.0.1:80",
    "::1",
    "[::1",
    "::1]",
    "[::1]x",
    "[::1]]",
    "[[::1]",
    "[::1]:80",
    "a[b",
    "a]b",
    "[1::2::3]",
    "[::g]",
    "[1:2:3:4:5:6:7:8:9]",
    "[1:2:3:4:5:6:7]",
    "[::ffff:1.2.3.256]",
    "256.0.0.1",
    "1.2.3.4.5",
    "[]",
    "[example.com]",
  ])("%j", (host) => {
    expect(readHost(host)).toBeUndefined();
  });
});

describe("ipv6Pieces: the eight pieces of an address as written", () => {
  it.each([
    ["::", [0, 0, 0, 0, 0, 0, 0, 0]],
    ["::1", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["1::", [1, 0, 0, 0, 0, 0, 0, 0]],
    ["1:2:3:4:5:6:7:8", [1, 2, 3, 4, 5, 6, 7, 8]],
    ["1:2:3:4:5:6:7::", [1, 2, 3, 4, 5, 6, 7, 0]],
    ["::2:3:4:5:6:7:8", [0, 2, 3, 4, 5, 6, 7, 8]],
    ["ffff::FFFF", [0xffff, 0, 0, 0, 0, 0, 0, 0xffff]],
    ["1:0db8::1", [1, 0xdb8, 0, 0, 0, 0, 0, 1]],
    ["::ffff:127.0.0.1", [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]],
    ["::127.0.0.1", [0, 0, 0, 0, 0, 0, 0x7f00, 1]],
    ["::1.2.3.4", [0, 0, 0, 0, 0, 0, 0x102, 0x304]],
    ["1:2:3:4:5:6:1.2.3.4", [1, 2, 3, 4, 5, 6, 0x102, 0x304]],
    ["1::6:1.2.3.4", [1, 0, 0, 0, 0, 6, 0x102, 0x304]],
    ["1::255.255.255.255", [1, 0, 0, 0, 0, 0, 0xffff, 0xffff]],
  ])("%s", (text, pieces) => {
    expect(ipv6Pieces(text)).toEqual(pieces);
  });

  it.each([
    "",
    "1",
    "1.2.3.4",
    "1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    "::1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7:8::",
    "1:2:3:4:5:6::1.2.3.4",
    "1:2:3:4:5:6:7:1.2.3.4",
    "::ffff:1.2.3",
    "::ffff:1.2.3.256",
    "::ffff:01.2.3.4",
    "12345::",
    "1g::",
    "1:2:3:4:5:6:7:g",
    ":::",
    "1:::",
    "::1::",
    "g:1.2.3.4",
    "1.2.3.4:1.2.3.4",
    "::12g",
    "::g",
    ":1::",
    "1:::2",
    "1:2",
  ])("%j is not an address", (text) => {
    expect(ipv6Pieces(text)).toBeUndefined();
  });
});

describe("embeddedIpv4 on pieces", () => {
  it("reads each family at its own place", () => {
    expect(embeddedIpv4([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1])).toEqual(["127.0.0.1"]);
    expect(embeddedIpv4([0, 0, 0, 0, 0, 0, 0x0a00, 0x0001])).toEqual(["10.0.0.1"]);
    expect(embeddedIpv4([0, 0, 0, 0, 0, 0, 0, 1])).toEqual([]);
    expect(embeddedIpv4([0, 0, 0, 0, 0, 0, 1, 1])).toEqual(["0.1.0.1"]);
    expect(embeddedIpv4([0, 0, 0, 0, 0, 0, 0, 0])).toEqual(["0.0.0.0"]);
    expect(embeddedIpv4([0x2002, 0xc0a8, 0x0102, 0, 0, 0, 0, 0])).toEqual(["192.168.1.2"]);
    expect(embeddedIpv4([0x2001, 0, 0x0a0b, 0x0c0d, 0, 0, 0xffff, 0xfffe])).toEqual([
      "10.11.12.13",
      "0.0.0.1",
    ]);
    // the same address through two families is named once
    expect(embeddedIpv4([0x2001, 0, 0x7f00, 1, 0, 0, 0x80ff, 0xfffe])).toEqual(["127.0.0.1"]);
    expect(embeddedIpv4([0xfe80, 0, 0, 0, 0x0200, 0x5efe, 0xc0a8, 0x0101])).toEqual(["192.168.1.1"]);
  });
});
