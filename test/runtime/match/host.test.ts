/**
 * The one host canonicaliser: WHATWG host parsing (Node's `URL`, an oracle nobody here wrote) and the IPv4
 * addresses an IPv6 address embeds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { embeddedIpv4, ipv6Pieces, readHost } from "../../../src/runtime/match/host.js";

const octets = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
const dotted = (o: readonly number[]) => o.join(".");
const hex = (n: number) => n.toString(16);
/** The two 16-bit pieces of an IPv4 address. */
const pieces = (o: readonly number[]) => [
  (o[0] as number) * 256 + (o[1] as number),
  (o[2] as number) * 256 + (o[3] as number),
];

describe("readHost", () => {
  it.each([
    ["API.GitHub.com", "api.github.com", "name"],
    ["bücher.de", "xn--bcher-kva.de", "name"],
    ["2130706433", "127.0.0.1", "ipv4"],
    ["0x7f.1", "127.0.0.1", "ipv4"],
    ["0177.0.0.1", "127.0.0.1", "ipv4"],
    ["127.1", "127.0.0.1", "ipv4"],
    ["[0:0:0:0:0:0:0:1]", "[::1]", "ipv6"],
    ["[::FFFF:127.0.0.1]", "[::ffff:7f00:1]", "ipv6"],
  ])("reads %j as %j (%s)", (host, ascii, kind) => {
    expect(readHost(host)).toMatchObject({ ascii, kind });
  });

  it.each(["", "a/b", "a:80", "[::1", "::1", "a@b", "[::1]x", "[1::2::3]", "256.0.0.1", "a b"])(
    "refuses %j",
    (host) => {
      expect(readHost(host)).toBeUndefined();
    },
  );

  it("reads every embedding of an IPv4 address in IPv6 as that address too (property)", () => {
    fc.assert(
      fc.property(octets, fc.nat(0xffff), (o, x) => {
        const v4 = dotted(o);
        const [hi, lo] = pieces(o).map(hex) as [string, string];
        const [nhi, nlo] = pieces(o).map((p) => hex(~p & 0xffff)) as [string, string];
        const spellings = [
          `[::ffff:${v4}]`,
          `[::ffff:${hi}:${lo}]`,
          `[0:0:0:0:0:ffff:${hi}:${lo}]`,
          `[::ffff:0:${hi}:${lo}]`,
          `[64:ff9b::${v4}]`,
          `[64:ff9b:1::${hi}:${lo}]`,
          `[2002:${hi}:${lo}::${hex(x)}]`,
          `[2001:0:${hi}:${lo}::${hex(x)}]`,
          `[2001:0:4136:e378:8000:${hex(x)}:${nhi}:${nlo}]`,
          `[fe80::5efe:${hi}:${lo}]`,
          `[2001:db8::200:5efe:${v4}]`,
        ];
        // IPv4-compatible, but ::1 (the IPv6 loopback)
        if (v4 !== "0.0.0.1") spellings.push(`[::${v4}]`);
        for (const spelling of spellings) {
          const read = readHost(spelling);
          expect(read?.kind, spelling).toBe("ipv6");
          expect(read?.embedded, spelling).toContain(v4);
          expect(read?.names, spelling).toContain(v4);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("an IPv6 address outside those families embeds nothing", () => {
    for (const host of ["[::1]", "[2001:db8::1]", "[fe80::1]", "[2606:4700::6810:85e5]"])
      expect(readHost(host)?.embedded, host).toEqual([]);
  });

  it("ipv6Pieces reads back what the parser writes, for any eight pieces (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant(0), fc.nat(0xffff)), { minLength: 8, maxLength: 8 }), (p) => {
        const written = `[${p.map(hex).join(":")}]`;
        const read = readHost(written);
        if (read === undefined) throw new Error(`${written} is not read`);
        expect(read.kind).toBe("ipv6");
        expect(ipv6Pieces(read.ascii.slice(1, -1))).toEqual(p);
        expect(embeddedIpv4(p)).toEqual(read.embedded);
      }),
      { numRuns: 2_000 },
    );
  });
});
