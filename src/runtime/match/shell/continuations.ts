// Line continuations, as the shells read them. Every shell removes a backslash-newline before it splits the
// input into tokens, everywhere except inside single quotes (and bash's `$'…'`) and comments, so that
// `$\<newline>(cmd)` is a command substitution and `(\<newline>(` an arithmetic command. (zsh keeps an
// operator such as `&&` or `;;` apart when the pair is split, and reads `"$\<newline>(…)"` as text: it then
// runs less, never more, than the joined reading; the safe subset refuses those places.)
//
// Where the single quotes and comments are depends on the whole parse, so the joining below is a proposal
// that the reader checks: it parses the joined text, notes where it read single quotes and comments, and
// refuses the string unless exactly the backslash-newlines inside those were kept (reader.ts).

/** The joined text, and where each removed backslash-newline was (offsets into `text`, ascending). */
export interface JoinedSource {
  readonly text: string;
  readonly removed: readonly number[];
}

type Frame =
  | { readonly kind: "code"; depth: number }
  | { readonly kind: "double" }
  | { readonly kind: "backquote" }
  | { readonly kind: "parameter"; readonly quoted: boolean };

/** Characters after which an unquoted `#` starts a comment. */
const TOKEN_END = " \t\n;&|()<>";

/**
 * Removes every backslash-newline of `source` outside single quotes, `$'…'` (when `ansiC`) and comments.
 *
 * @param source - a command string holding at least one backslash-newline.
 * @param ansiC - the dialect reads `$'…'` as one quoted string (bash, zsh, busybox), not `$` then `'…'`.
 */
export function joinContinuations(source: string, ansiC: boolean): JoinedSource {
  let text = "";
  const removed: number[] = [];
  const stack: Frame[] = [{ kind: "code", depth: 0 }];
  let wordStart = true;
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i] as string;
    const next = source[i + 1];
    const frame = stack[stack.length - 1] as Frame;
    if (c === "\\") {
      if (next === "\n") removed.push(text.length);
      else text += source.slice(i, i + 2);
      i += 2;
      if (next !== "\n") wordStart = false;
      continue;
    }
    let take = 1;
    if (frame.kind === "backquote") {
      if (c === "`") stack.pop();
    } else if (frame.kind === "double" || (frame.kind === "parameter" && frame.quoted)) {
      if (c === '"') {
        if (frame.kind === "double") stack.pop();
        else stack.push({ kind: "double" });
      } else if (c === "`") stack.push({ kind: "backquote" });
      else if (c === "$" && next === "(") {
        stack.push({ kind: "code", depth: 0 });
        take = 2;
      } else if (c === "$" && next === "{") {
        stack.push({ kind: "parameter", quoted: true });
        take = 2;
      } else if (c === "}" && frame.kind === "parameter") stack.pop();
    } else if (c === "'" || (c === "$" && next === "'" && ansiC)) {
      const close = c === "'" ? source.indexOf("'", i + 1) : closeAnsiC(source, i + 2);
      take = (close === -1 ? n : close + 1) - i;
    } else if (c === "#" && wordStart) {
      // wordStart is only ever true in a code frame (it is set below from the frame on top, which a
      // backslash pair leaves as it is).
      const end = source.indexOf("\n", i);
      take = (end === -1 ? n : end) - i;
    } else if (c === '"') stack.push({ kind: "double" });
    else if (c === "`") stack.push({ kind: "backquote" });
    else if (c === "$" && next === "(") {
      stack.push({ kind: "code", depth: 0 });
      take = 2;
    } else if (c === "$" && next === "{") {
      stack.push({ kind: "parameter", quoted: false });
      take = 2;
    } else if (frame.kind === "parameter") {
      // An unquoted `${…}`: only its `}` matters here.
      if (c === "}") stack.pop();
    } else if (c === "(") frame.depth++;
    else if (c === ")") {
      // A code frame (the only kind left).
      if (frame.depth > 0) frame.depth--;
      else if (stack.length > 1) stack.pop();
    }
    text += source.slice(i, i + take);
    i += take;
    const last = text[text.length - 1] as string;
    // The bottom frame is never popped (a `)` pops only a frame above it), so there is always a top frame.
    wordStart = (stack[stack.length - 1] as Frame).kind === "code" && TOKEN_END.includes(last);
  }
  return { text, removed };
}

/** The closing quote of `$'…'` whose text starts at `from` (a backslash escapes anything), or -1. */
function closeAnsiC(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === "'") return i;
  }
  return -1;
}

/** How many backslash-newlines `text` holds in `[from, to)`: newlines after an odd run of backslashes. */
export function countContinuations(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) {
    let k = i;
    while (k > from && text[k - 1] === "\\") k--;
    if ((i - k) % 2 === 1) count++;
  }
  return count;
}
