/**
 * Which internationalised host labels the `url` operator trusts. A security table, kept apart from the URL
 * reading so that a reviewer can read it alone.
 *
 * A host label that the parser turned into punycode (`xn--…`) is trusted only when its Unicode form is in one
 * script (or one of the usual East Asian mixtures with Latin), has no letter of a script full of Latin
 * look-alikes, no Latin letter that imitates another, and no symbol or combining mark. Anything else is a
 * look-alike risk: `аpi.github.com` with a Cyrillic `а` is `xn--pi-7kc.github.com`, a different host that
 * reads the same to a person approving the call.
 */
import { decodePunycode } from "./punycode.js";

/** Scripts with many letters that look like Latin ones (Unicode's confusables data): never trusted in a host. */
const LOOK_ALIKE_SCRIPTS = [
  "Cyrillic",
  "Greek",
  "Armenian",
  "Cherokee",
  "Coptic",
  "Lisu",
  "Canadian_Aboriginal",
];

/** Latin letters outside ASCII that imitate ASCII ones (dotless i, script a, small capitals, …). */
const LATIN_LOOK_ALIKES = new Set("ıȷɑɡɩɪʏǀǃɢʜʟɴʀꞵꜱᴀᴄᴅᴇᴊᴋᴍᴏᴘᴛᴜᴠᴡᴢƅƄɒɓɗɦɪɭɱɲɵʂʋʐʠƈƙƚƞƥƫƭƴƶȥȿɀɂꞇꞁꭓ");

/** The East Asian mixtures with Latin that are ordinary in host names. */
const ALLOWED_MIXTURES: readonly ReadonlySet<string>[] = [
  new Set(["Latin", "Han", "Hiragana", "Katakana"]),
  new Set(["Latin", "Han", "Bopomofo"]),
  new Set(["Latin", "Han", "Hangul"]),
];

/** Scripts told apart; a letter of any other script counts as its own "Other" script. */
const KNOWN_SCRIPTS = [
  "Latin",
  "Han",
  "Hiragana",
  "Katakana",
  "Bopomofo",
  "Hangul",
  "Arabic",
  "Hebrew",
  "Thai",
  "Devanagari",
  "Bengali",
  "Tamil",
  "Georgian",
  "Ethiopic",
  ...LOOK_ALIKE_SCRIPTS,
];

const SCRIPT_TESTS: readonly { readonly name: string; readonly test: RegExp }[] = KNOWN_SCRIPTS.map(
  (name) => ({
    name,
    test: new RegExp(`^\\p{Script=${name}}$`, "u"),
  }),
);

const NEUTRAL = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

function scriptOf(character: string): string {
  for (const { name, test } of SCRIPT_TESTS) if (test.test(character)) return name;
  return "Other";
}

/**
 * Why a label of an ASCII host (as the URL parser gives it) may imitate another, or `undefined` when it is
 * plain: an ASCII label that is not punycode, or punycode whose Unicode form passes the checks above.
 */
export function hostLabelProblem(label: string): string | undefined {
  if (!label.startsWith("xn--")) return undefined;
  const unicode = decodePunycode(label.slice(4));
  if (unicode === undefined || unicode === "") return `"${label}" is not valid punycode`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is the range looked for.
  if (/^[\u0000-\u007f]*$/.test(unicode)) return `"${label}" is punycode for plain ASCII "${unicode}"`;
  if (unicode.normalize("NFC") !== unicode) return `"${label}" (${unicode}) is not in normal form`;
  const scripts = new Set<string>();
  for (const character of unicode) {
    if (character.charCodeAt(0) < 0x80) {
      if (/[a-z]/.test(character)) scripts.add("Latin");
      continue;
    }
    if (NEUTRAL.test(character))
      return `"${label}" (${unicode}) has the symbol or mark U+${(character.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`;
    const script = scriptOf(character);
    if (LOOK_ALIKE_SCRIPTS.includes(script))
      return `"${label}" (${unicode}) has ${script} letters, which look like Latin ones`;
    if (LATIN_LOOK_ALIKES.has(character))
      return `"${label}" (${unicode}) has "${character}", which looks like an ASCII letter`;
    scripts.add(script);
  }
  if (scripts.size > 1 && !ALLOWED_MIXTURES.some((allowed) => [...scripts].every((s) => allowed.has(s))))
    return `"${label}" (${unicode}) mixes scripts (${[...scripts].join(", ")})`;
  return undefined;
}
