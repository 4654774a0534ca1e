/**
 * RFC 3492's punycode encoder (section 6.3), for tests that need the punycode of a label IDNA would map or
 * refuse (an upper-case letter, a decomposed accent, a lone code point). Checked against Node's encoder in
 * url-punycode.test.ts.
 */
const DIGITS = "abcdefghijklmnopqrstuvwxyz0123456789";

function adapt(deltaIn: number, points: number, first: boolean): number {
  let delta = first ? Math.floor(deltaIn / 700) : Math.floor(deltaIn / 2);
  delta += Math.floor(delta / points);
  let k = 0;
  while (delta > (35 * 26) / 2) {
    delta = Math.floor(delta / 35);
    k += 36;
  }
  return k + Math.floor((36 * delta) / (delta + 38));
}

/** The punycode of a label, without the `xn--` prefix. */
export function encodePunycode(label: string): string {
  const codePoints = [...label].map((character) => character.codePointAt(0) as number);
  let output = codePoints
    .filter((c) => c < 0x80)
    .map((c) => String.fromCharCode(c))
    .join("");
  const basic = output.length;
  if (basic > 0) output += "-";
  let n = 0x80;
  let delta = 0;
  let bias = 72;
  let handled = basic;
  while (handled < codePoints.length) {
    const m = Math.min(...codePoints.filter((c) => c >= n));
    delta += (m - n) * (handled + 1);
    n = m;
    for (const c of codePoints) {
      if (c < n) delta++;
      if (c !== n) continue;
      let q = delta;
      for (let k = 36; ; k += 36) {
        const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
        if (q < t) break;
        output += DIGITS[t + ((q - t) % (36 - t))];
        q = Math.floor((q - t) / (36 - t));
      }
      output += DIGITS[q];
      bias = adapt(delta, handled + 1, handled === basic);
      delta = 0;
      handled++;
    }
    delta++;
    n++;
  }
  return output;
}
