/** Punycode (RFC 3492) decoding of one host label, for reading internationalised host names back. */

/**
 * Decodes a punycode label body (RFC 3492, the part after `xn--`).
 * @returns the Unicode label, or `undefined` when it is not valid punycode.
 */
export function decodePunycode(input: string): string | undefined {
  const base = 36;
  const tMin = 1;
  const tMax = 26;
  const skew = 38;
  const damp = 700;
  let n = 128;
  let i = 0;
  let bias = 72;
  const delimiter = input.lastIndexOf("-");
  const output: number[] = [];
  for (let j = 0; j < Math.max(delimiter, 0); j++) {
    const c = input.charCodeAt(j);
    if (c >= 0x80) return undefined;
    output.push(c);
  }
  const adapt = (deltaIn: number, points: number, first: boolean): number => {
    let delta = first ? Math.floor(deltaIn / damp) : deltaIn >> 1;
    delta += Math.floor(delta / points);
    let k = 0;
    while (delta > ((base - tMin) * tMax) >> 1) {
      delta = Math.floor(delta / (base - tMin));
      k += base;
    }
    return k + Math.floor(((base - tMin + 1) * delta) / (delta + skew));
  };
  for (let index = delimiter > 0 ? delimiter + 1 : 0; index < input.length; ) {
    const oldI = i;
    let w = 1;
    for (let k = base; ; k += base) {
      // Past the end, charCodeAt gives NaN, which is no digit.
      const c = input.charCodeAt(index++);
      const digit =
        c >= 48 && c <= 57 ? c - 22 : c >= 65 && c <= 90 ? c - 65 : c >= 97 && c <= 122 ? c - 97 : base;
      if (digit >= base) return undefined;
      i += digit * w;
      // Past this, the code point `n + i / (output.length + 1)` is beyond U+10FFFF; stopping here keeps `i` small.
      if (i > 0x10ffff * (output.length + 1)) return undefined;
      const t = Math.min(Math.max(k - bias, tMin), tMax);
      if (digit < t) break;
      w *= base - t;
    }
    bias = adapt(i - oldI, output.length + 1, oldI === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff) return undefined;
    output.splice(i, 0, n);
    i++;
  }
  // Every code point is below U+110000 (the check above), so this never throws.
  return String.fromCodePoint(...output);
}
