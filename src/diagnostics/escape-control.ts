/**
 * Escaping for text shown to a person. A terminal acts on control characters instead of showing them, and
 * bidirectional controls reorder what is shown: either can hide a call's real arguments or fake others. Every
 * human-facing output passes text it did not write itself (call ids, tool names, arguments, approvers, reasons,
 * file names, messages) through `escapeControl`.
 */

/**
 * C0 controls, DEL, C1 controls, the bidirectional marks, embeddings, overrides and isolates, and the line and
 * paragraph separators (which some terminals and editors break lines at).
 */
function isUnsafe(code: number): boolean {
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/**
 * Replaces each control, C1 and bidirectional control character with its visible `\uXXXX` form (ESC becomes
 * the six characters `\u001b`), so that the text shows as what it is. Newlines are escaped too unless
 * `keepNewlines` is set, for formats whose messages span lines.
 */
export function escapeControl(text: string, options: { readonly keepNewlines?: boolean } = {}): string {
  const keepNewlines = options.keepNewlines === true;
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isUnsafe(code) || (keepNewlines && code === 0x0a)) continue;
    out += `${text.slice(from, i)}\\u${code.toString(16).padStart(4, "0")}`;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
