/**
 * The one host canonicaliser of the `url` operator: every host a URL names and every host a rule lists is read
 * here, so the two are compared in one form.
 *
 * A host is read as the WHATWG URL parser reads it (Node's `URL`, which `fetch` uses): lower case, IDNA to
 * punycode, an IPv4 address in any spelling (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`) as dotted decimal,
 * an IPv6 address compressed in brackets (`[::ffff:7f00:1]`). On top of that, an IPv6 address that embeds an
 * IPv4 address is also read as that IPv4 address: an operating system, a NAT64 gateway or a 6to4 or Teredo
 * relay may deliver a packet to it there. The embeddings read are IPv4-mapped (`::ffff:0:0/96`),
 * IPv4-compatible (`::/96`, but `::1`; `::` is `0.0.0.0`), IPv4-translated (`::ffff:0:0:0/96`), NAT64 (`64:ff9b::/96`
 * and the local-use `64:ff9b:1::/48`, the last 32 bits), 6to4 (`2002::/16`), Teredo (`2001::/32`, its server
 * and its client) and ISATAP (an interface identifier `0:5efe` or `200:5efe`).
 */

/** A host as the parser reads it, with every address it may reach. */
export interface HostReading {
  /** The parser's ASCII host: a name, a dotted-decimal IPv4 address or a bracketed, compressed IPv6 address. */
  readonly ascii: string;
  readonly kind: "name" | "ipv4" | "ipv6";
  /** The IPv4 addresses (dotted decimal) an IPv6 address embeds; empty for any other host. */
  readonly embedded: readonly string[];
  /** Every form the host may be reached by: `ascii` and the embedded IPv4 addresses. */
  readonly names: readonly string[];
}

/** Dotted decimal, each octet without a leading zero: the form the parser writes an IPv4 address in. */
export const DOTTED_IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * The reading of `host` (written without scheme, port, path or userinfo; an IPv6 address in brackets), or
 * undefined when the parser refuses it or would read more than a host in it.
 */
export function readHost(host: string): HostReading | undefined {
  if (host === "" || /[\s/\\?#@%]/.test(host)) return undefined;
  // A `:` is only the IPv6 address's own, inside its brackets (the first `]` is the last character).
  if (host.startsWith("[") ? host.indexOf("]") !== host.length - 1 : /[:[\]]/.test(host)) return undefined;
  let ascii: string;
  try {
    ascii = new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
  if (ascii.startsWith("[")) {
    const pieces = ipv6Pieces(ascii.slice(1, -1));
    if (pieces === undefined) return undefined;
    const embedded = embeddedIpv4(pieces);
    return { ascii, kind: "ipv6", embedded, names: [ascii, ...embedded] };
  }
  if (DOTTED_IPV4.test(ascii)) return { ascii, kind: "ipv4", embedded: [], names: [ascii] };
  return { ascii, kind: "name", embedded: [], names: [ascii] };
}

/** The eight 16-bit pieces of an IPv6 address (without brackets; a dotted IPv4 tail allowed), or undefined. */
export function ipv6Pieces(text: string): number[] | undefined {
  let body = text;
  const tail: number[] = [];
  const lastColon = body.lastIndexOf(":");
  if (body.slice(lastColon + 1).includes(".")) {
    const v4 = body.slice(lastColon + 1);
    if (!DOTTED_IPV4.test(v4)) return undefined;
    const octets = v4.split(".").map(Number) as [number, number, number, number];
    tail.push(octets[0] * 256 + octets[1], octets[2] * 256 + octets[3]);
    // The pieces before the IPv4 tail, without the `:` that separates them from it (but a `::`).
    body = body.slice(0, lastColon + 1);
    if (!body.endsWith("::")) body = body.slice(0, -1);
  }
  const parse = (part: string): number[] | undefined => {
    if (part === "") return [];
    const out: number[] = [];
    for (const group of part.split(":")) {
      if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined;
      out.push(Number.parseInt(group, 16));
    }
    return out;
  };
  const width = 8 - tail.length;
  const double = body.indexOf("::");
  let pieces: number[];
  if (double >= 0) {
    const head = parse(body.slice(0, double));
    const rest = parse(body.slice(double + 2));
    if (head === undefined || rest === undefined || head.length + rest.length >= width) return undefined;
    pieces = [...head, ...new Array<number>(width - head.length - rest.length).fill(0), ...rest];
  } else {
    const all = parse(body);
    if (all === undefined || all.length !== width) return undefined;
    pieces = all;
  }
  return [...pieces, ...tail];
}

function dotted(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** The IPv4 addresses an IPv6 address (its eight pieces) embeds, in the address families listed above. */
export function embeddedIpv4(p: readonly number[]): string[] {
  const [p0, p1, p2, p3, p4, p5, p6, p7] = p as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const out = new Set<string>();
  const zeroTo = (n: number) => p.slice(0, n).every((x) => x === 0);
  // IPv4-mapped ::ffff:a.b.c.d
  if (zeroTo(5) && p5 === 0xffff) out.add(dotted(p6, p7));
  // IPv4-compatible ::a.b.c.d (deprecated), but the loopback ::1 (the unspecified :: is 0.0.0.0, which both
  // reach the local host through on Linux)
  if (zeroTo(6) && (p6 !== 0 || p7 !== 1)) out.add(dotted(p6, p7));
  // IPv4-translated ::ffff:0:a.b.c.d (SIIT)
  if (zeroTo(4) && p4 === 0xffff && p5 === 0) out.add(dotted(p6, p7));
  // NAT64: the well-known prefix 64:ff9b::/96 and the local-use 64:ff9b:1::/48 (read at its last 32 bits)
  if (p0 === 0x64 && p1 === 0xff9b && (p.slice(2, 6).every((x) => x === 0) || p2 === 1))
    out.add(dotted(p6, p7));
  // 6to4 2002:aabb:ccdd::/48
  if (p0 === 0x2002) out.add(dotted(p1, p2));
  // Teredo 2001:0::/32: the server in bits 32-63, the client (inverted) in the last 32
  if (p0 === 0x2001 && p1 === 0) {
    out.add(dotted(p2, p3));
    out.add(dotted(~p6 & 0xffff, ~p7 & 0xffff));
  }
  // ISATAP: an interface identifier 0000:5efe or 0200:5efe (the universal/local and group bits ignored)
  if ((p4 & 0xfcff) === 0 && p5 === 0x5efe) out.add(dotted(p6, p7));
  return [...out];
}
