/**
 * POSIX path normalisation for glob and prefix rules: the same file is always spelt the same way before a
 * pattern looks at it. Purely lexical: no file system access, no symlink resolution, no case folding, and a
 * backslash is an ordinary character. {@link readPath} gives the readings of other platforms.
 */

import { foldString, fullFoldString, isFoldStable } from "./case-fold.js";

/** Result of {@link normalizePath}. */
export type NormalizePathResult =
  | {
      readonly ok: true;
      /** The normalised path: no empty or `.` segments, `..` only at the start of a relative path. */
      readonly path: string;
      /** True when the input started with `/`. */
      readonly absolute: boolean;
      /** True when some `..` climbed above the start (above `/`, or above a relative path's own root). */
      readonly escapesRoot: boolean;
    }
  | { readonly ok: false; readonly message: string };

/**
 * Normalises a POSIX path lexically: collapses repeated `/`, drops `.` segments, resolves `..` against the
 * segment before it and strips a trailing `/` (except for the root `/`).
 *
 * A `..` that has nothing left to climb sets `escapesRoot`; in an absolute path it is dropped (`/../x` is
 * `/x`, as the kernel resolves it), in a relative one it is kept (`a/../../x` is `../x`). A relative path that
 * resolves to nothing is `.`.
 *
 * @param input - the path as received (for example a tool argument).
 * @returns `{ ok: true, path, absolute, escapesRoot }`, or `{ ok: false, message }` for an empty path or one
 *   containing a NUL byte. Never throws.
 */
export function normalizePath(input: string): NormalizePathResult {
  if (input.length === 0) return { ok: false, message: "the path is empty" };
  if (input.includes("\0"))
    return { ok: false, message: "the path contains a NUL byte, which no file name may hold" };
  const absolute = input.charCodeAt(0) === 0x2f;
  const segments: string[] = [];
  // Leading `..` segments kept in a relative path; they are below every other segment in `segments`.
  let climbs = 0;
  let escapesRoot = false;
  let start = 0;
  const length = input.length;
  while (start <= length) {
    let end = input.indexOf("/", start);
    if (end < 0) end = length;
    const segmentLength = end - start;
    if (segmentLength === 0 || (segmentLength === 1 && input.charCodeAt(start) === 0x2e)) {
      // empty or "."
    } else if (
      segmentLength === 2 &&
      input.charCodeAt(start) === 0x2e &&
      input.charCodeAt(start + 1) === 0x2e
    ) {
      if (segments.length > 0) segments.pop();
      else {
        escapesRoot = true;
        if (!absolute) climbs++;
      }
    } else {
      segments.push(input.slice(start, end));
    }
    start = end + 1;
  }
  let path: string;
  if (absolute) path = `/${segments.join("/")}`;
  else {
    const parts = climbs > 0 ? new Array<string>(climbs).fill("..").concat(segments) : segments;
    path = parts.length === 0 ? "." : parts.join("/");
  }
  return { ok: true, path, absolute, escapesRoot };
}

// ---------------------------------------------------------------------------------------------------------
// Readings across platforms

/** One way a platform may read a path, normalised; a `null` segment is an unknown name (a Windows short name). */
export interface PathReading {
  readonly absolute: boolean;
  readonly segments: readonly (string | null)[];
}

/**
 * How the file systems of Linux, macOS and Windows may read one path string (see {@link readPath}).
 * `plain` says the first reading is the only one; `anywhere` that the path may name any file at all.
 */
export interface PathReadings {
  /**
   * A plain relative POSIX path in NFC whose case folding is stable (simple and full folding agree), with no
   * default-ignorable code point, no leading `~` and no `..;` segment: every platform reads it as `readings[0]`.
   */
  readonly plain: boolean;
  /** The path may name any file: a `..` climbs out of its root, a drive-relative `C:x`, a NUL byte, an empty path. */
  readonly anywhere: boolean;
  /** Every plausible reading, normalised; the first is the POSIX one (a backslash is an ordinary character). */
  readonly readings: readonly PathReading[];
}

const ANYWHERE: PathReadings = Object.freeze({ plain: false, anywhere: true, readings: Object.freeze([]) });

/** Windows device names: `con`, `nul.txt` and the like name a device in any directory. */
const DEVICE_NAME = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(?:\.|$)/i;
/** An 8.3 short name such as `GIT~1` or `SECRET~2.PEM`. */
const SHORT_NAME = /~[0-9]/;
/** Dotless and dotted i: one letter with `i`/`I` on file systems that upper-case with the Turkic-free table. */
const TURKIC_I = /[ıİ]/g;

/**
 * Default-ignorable code points (Unicode's Default_Ignorable_Code_Point, the invisible format characters, fillers
 * and variation selectors): HFS+ and APFS drop or ignore several of them when they compare names, and a person
 * reading the path does not see them. `.s\u200Dsh` may open `.ssh`.
 */
const IGNORABLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each code point is meant on its own, U+034F included.
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]/gu;
/** A segment Tomcat and Spring read as `.` or `..`: a path parameter after `;` is dropped (`/a/..;x/b` is `/b`). */
const DOT_PARAMETER_SEGMENT = /(^|[\\/])(\.\.?);[^\\/]*(?=[\\/]|$)/g;
/** The same patterns without the flag `g`, for `test` (which would otherwise keep a `lastIndex`). */
const HAS_IGNORABLE = new RegExp(IGNORABLE.source, "u");
const HAS_DOT_PARAMETER_SEGMENT = new RegExp(DOT_PARAMETER_SEGMENT.source);

/** True when every code point of `text` folds the same way on every case-insensitive file system. */
function hasStableFolding(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) {
      for (const ch of text.slice(i)) if (!isFoldStable(ch.codePointAt(0) as number)) return false;
      return true;
    }
  }
  return true;
}

/** Lexical normalisation of a reading; null when a `..` climbs out of its root. */
function normalizeReading(absolute: boolean, segments: readonly (string | null)[]): PathReading | null {
  const out: (string | null)[] = [];
  for (const segment of segments) {
    // The caller leaves out empty segments.
    if (segment === ".") continue;
    if (segment === "..") {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(segment);
  }
  return { absolute, segments: out };
}

/**
 * The Windows reading of one segment: a `:` starts a stream name (`a:b`, `name::$DATA`), trailing dots and
 * spaces are dropped (`.env.`, `.env `), and an 8.3 short name (`GIT~1`) may be any long name. Returns
 * undefined when nothing is left (`...`, `:x`): such a segment may be `.` or `..` or nothing at all.
 */
function windowsSegment(segment: string): string | null | undefined {
  if (segment === "." || segment === "..") return segment;
  let name = segment;
  const colon = name.indexOf(":");
  if (colon >= 0) name = name.slice(0, colon);
  name = name.replace(/[. ]+$/, "");
  if (name === "") return undefined;
  if (SHORT_NAME.test(name)) return null;
  return name;
}

/**
 * The Windows readings of a path, `\` and `/` both separators: a drive (`C:\x`, `c:/x`) or UNC prefix
 * (`\\server\share\x`, `//server/share/x`, `\\?\C:\x`, `\\.\x`) makes it absolute; a drive-relative `C:x`
 * may be anywhere (returns null).
 */
function windowsReadings(input: string): PathReading[] | null {
  let rest = input.replaceAll("\\", "/");
  let absolute = false;
  const roots: string[][] = [];
  // `\\?\`, `\\.\` and the NT object-manager prefix `\??\` (`\??\C:\x` is `C:\x`).
  if (/^\/\/[?.]\//.test(rest) || /^\/\?\?\//.test(rest)) {
    rest = rest.slice(4);
    if (/^unc\//i.test(rest)) rest = `//${rest.slice(4)}`;
    absolute = true;
  }
  const drive = /^[A-Za-z]:/.exec(rest);
  if (drive !== null) {
    if (rest[2] !== "/" && rest.length > 2) return null;
    if (rest.length === 2) return null;
    roots.push(rest.slice(3).split("/"));
    absolute = true;
  } else if (rest.startsWith("//")) {
    // UNC: `//server/share/x` is read with and without its server and share.
    const parts = rest.slice(2).split("/");
    roots.push(parts, parts.slice(2));
    absolute = true;
  } else {
    absolute = absolute || rest.startsWith("/");
    roots.push(rest.split("/"));
  }
  const readings: PathReading[] = [];
  for (const parts of roots) {
    const segments: (string | null)[] = [];
    for (const part of parts) {
      if (part === "") continue;
      const read = windowsSegment(part);
      if (read === undefined) return null;
      segments.push(read);
    }
    const normal = normalizeReading(absolute, segments);
    if (normal === null) return null;
    readings.push(normal);
  }
  return readings;
}

function readingKey(reading: PathReading): string {
  return `${reading.absolute ? "/" : ""}${reading.segments.map((s) => (s === null ? "\0" : s)).join("/")}`;
}

/**
 * Every way Linux, macOS and Windows file systems may read `input` (DESIGN.md section 4.5: certainty means
 * every reader agrees). The POSIX reading comes first; then the Windows one (`\` a separator, drive letters
 * and UNC prefixes absolute, `:` streams and trailing dots and spaces dropped, 8.3 short names unknown);
 * each also in NFC and NFD (macOS stores NFD), with `ı`/`İ` read as `i`, without default-ignorable code points
 * (`\u200D`, `\u00AD`, …, which HFS+ and APFS ignore), with `..;x` and `.;x` segments as `..` and `.` (Tomcat,
 * Spring), and in full case folding (`ß` as `ss`, `ﬁ` as `fi`) when that differs from simple folding. Simple
 * case is not folded here: a matcher compares the readings ignoring case for its *maybe*.
 *
 * @param input - the path as received.
 * @returns the readings; `plain` when the path is a relative POSIX path that every platform reads alike
 *   (no `\`, no `:`, no trailing dot or space in a segment, no short name or device name, NFC, case folding
 *   stable and full folding the same as simple, no default-ignorable code point, no leading `~` (a home
 *   directory), no `..;`/`.;` segment, no `..` climbing out), `anywhere` when the path may name any file.
 *   Never throws.
 */
export function readPath(input: string): PathReadings {
  return readSimplePath(input) ?? readEveryWay(input);
}

/**
 * The common case at a glance: a relative path of ASCII letters, digits, `_`, `-` and `.` whose segments are
 * neither empty nor end with `.` (so none is `.` or `..`) nor name a Windows device reads the same on every
 * platform — it is plain, and its one reading is its own segments. Undefined for anything else: `readPath` then
 * reads the path every way, to the same answer, only slower.
 */
export function readSimplePath(input: string): PathReadings | undefined {
  const n = input.length;
  // An empty path meets the closing `/` at once, an empty segment: no short cut.
  const segments: string[] = [];
  let start = 0;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? input.charCodeAt(i) : 0x2f;
    if (c === 0x2f) {
      if (i === start || input.charCodeAt(i - 1) === 0x2e) return undefined;
      const segment = input.slice(start, i);
      if (mayNameDevice(segment.charCodeAt(0)) && DEVICE_NAME.test(segment)) return undefined;
      segments.push(segment);
      start = i + 1;
    } else if (
      !(
        (c >= 0x61 && c <= 0x7a) ||
        (c >= 0x41 && c <= 0x5a) ||
        (c >= 0x30 && c <= 0x39) ||
        c === 0x5f ||
        c === 0x2d ||
        c === 0x2e
      )
    ) {
      return undefined;
    }
  }
  return { plain: true, anywhere: false, readings: [{ absolute: false, segments }] };
}

/** Whether a segment starting with this (ASCII) code unit may be a device name: they start with a, c, l, n or p. */
function mayNameDevice(c: number): boolean {
  const lower = c | 0x20;
  return lower === 0x61 || lower === 0x63 || lower === 0x6c || lower === 0x6e || lower === 0x70;
}

/**
 * The segments of a path `normalizePath` wrote: no empty segment but the one before a leading `/`, and `.` only as
 * the whole (empty) relative path.
 */
function segmentsOf(normalPath: string): string[] {
  return normalPath.split("/").filter((s) => s !== "" && s !== ".");
}

/** {@link readPath} without its shortcut for simple paths (exported for the test that they agree). */
export function readEveryWay(input: string): PathReadings {
  const posix = normalizePath(input);
  if (!posix.ok || posix.escapesRoot) return ANYWHERE;
  const first: PathReading = {
    absolute: posix.absolute,
    segments: segmentsOf(posix.path),
  };
  const nfc = input.normalize("NFC");
  const plain =
    !posix.absolute &&
    !/[\\:]/.test(input) &&
    // `~` and `~user` are a home directory to a shell and to many tools: never the relative path they look like.
    !input.startsWith("~") &&
    nfc === input &&
    first.segments.every(
      (s) => s !== null && !/[. ]$/.test(s) && !SHORT_NAME.test(s) && !DEVICE_NAME.test(s),
    ) &&
    !HAS_IGNORABLE.test(input) &&
    !HAS_DOT_PARAMETER_SEGMENT.test(input) &&
    hasStableFolding(input) &&
    foldString(fullFoldString(input)) === foldString(input);
  if (plain) return { plain, anywhere: false, readings: [first] };
  const readings = new Map<string, PathReading>([[readingKey(first), first]]);
  // The spellings: three forms (as written, NFC, NFD); each with `ı`/`İ` as `i`; each without its ignorable code
  // points; each with `..;x` and `.;x` segments as `..` and `.`; each in full case folding (and that in NFC) when
  // it differs from the simple one. Each is read at most three ways (POSIX, Windows, Windows without a UNC server
  // and share). Only paths that are not plain get here.
  const spellings = new Set([input, nfc, input.normalize("NFD")]);
  const widen = (read: (spelling: string) => string | undefined): void => {
    for (const spelling of [...spellings]) {
      const other = read(spelling);
      if (other !== undefined) spellings.add(other);
    }
  };
  widen((s) => (/[ıİ]/.test(s) ? s.replace(TURKIC_I, "i") : undefined));
  widen((s) => s.replace(IGNORABLE, ""));
  widen((s) => s.replace(DOT_PARAMETER_SEGMENT, "$1$2"));
  widen((s) => {
    const full = fullFoldString(s);
    return foldString(full) === foldString(s) ? undefined : full;
  });
  widen((s) => s.normalize("NFC"));
  for (const spelling of spellings) {
    const normal = normalizePath(spelling);
    if (!normal.ok || normal.escapesRoot) return ANYWHERE;
    const reading = { absolute: normal.absolute, segments: segmentsOf(normal.path) };
    readings.set(readingKey(reading), reading);
    const windows = windowsReadings(spelling);
    if (windows === null) return ANYWHERE;
    for (const w of windows) readings.set(readingKey(w), w);
  }
  return { plain: false, anywhere: false, readings: [...readings.values()] };
}

/** The text of a reading: its segments joined by `/`, after `/` when absolute; `.` for no segment. */
export function readingText(reading: PathReading): string {
  if (reading.absolute) return `/${reading.segments.join("/")}`;
  return reading.segments.length === 0 ? "." : reading.segments.join("/");
}

/**
 * The last path string that the rules of one compiled policy read, with what was derived from it: several
 * `glob` and `path_prefix` rules usually test the same argument in one decision, so it is read once. Holds one
 * path at a time; what it returns is exactly what a fresh {@link readPath}, {@link readingText} or
 * {@link normalizePath} returns. Each compiled policy owns one (its conditions' compile scope), so policies never
 * share what they read.
 */
export class PathReadMemo {
  /** The last path read, its readings and their texts, each written once when first asked for. */
  #last:
    | { readonly input: string; readonly readings: PathReadings; readonly texts: (string | undefined)[] }
    | undefined;
  /** The last path normalised and its normal form. */
  #normal: { readonly input: string; readonly result: NormalizePathResult } | undefined;

  /** {@link readPath} of `path`, read once while `path` is the last one asked for. */
  read(path: string): PathReadings {
    if (this.#last?.input !== path) {
      const simple = readSimplePath(path);
      this.#last = {
        input: path,
        readings: simple ?? readEveryWay(path),
        // Most paths are their own reading (`src/index.ts`): its text is the input itself, not a new string.
        texts: simple === undefined ? [] : [path],
      };
    }
    return this.#last.readings;
  }

  /** {@link readingText} of reading `i` of `read`, written once when `read` is what {@link read} returned last. */
  text(read: PathReadings, i: number): string {
    const reading = read.readings[i] as PathReading;
    const last = this.#last;
    if (last === undefined || read !== last.readings) return readingText(reading);
    last.texts[i] ??= readingText(reading);
    return last.texts[i];
  }

  /** {@link normalizePath} of `path`, normalised once while `path` is the last one asked for. */
  normalize(path: string): NormalizePathResult {
    if (this.#normal?.input !== path) this.#normal = { input: path, result: normalizePath(path) };
    return this.#normal.result;
  }
}
