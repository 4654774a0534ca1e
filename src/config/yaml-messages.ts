/**
 * The YAML parser's errors in toolgate's words: what is wrong at this place and what to write instead, as
 * every other diagnostic says it. The parser's own wording ("Plain value cannot start with reserved
 * character", "Nested mappings are not allowed in compact mappings") names its grammar, not the user's mistake.
 */

/** A parser error as the `yaml` package reports it. */
export interface YamlParserError {
  readonly code: string;
  readonly message: string;
}

const ANCHORS_AND_TAGS = "anchors, aliases and tags are not allowed in policy files; write the value out";

/** Messages by the parser's error code; a function reads what it needs from the parser's message. */
const MESSAGES: Readonly<Record<string, (raw: string) => string>> = {
  TAB_AS_INDENT: () =>
    "a tab indents this line, and YAML indents with spaces only; replace the tab with spaces",
  BAD_INDENT: (raw) => {
    const flow = /^Flow (sequence|map)/.exec(raw);
    if (flow !== null) {
      const [open, close] = flow[1] === "sequence" ? ["[", "]"] : ["{", "}"];
      return `this ${open} is never closed (or a line inside it is not indented past its key); end it with ${close}, or indent its lines further`;
    }
    return "the keys of one mapping must start at the same column; line this one up with the key above it";
  },
  BAD_SCALAR_START: (raw) => {
    const char = /character (.)/.exec(raw)?.[1];
    return `a value cannot start with ${char === undefined ? "this character" : `"${char}"`} unless it is quoted; put the value in double quotes`;
  },
  BAD_DQ_ESCAPE: (raw) => {
    const sequence = /sequence (\S+)/.exec(raw)?.[1];
    return `${sequence === undefined ? "this" : `"${sequence}"`} is not an escape in a double-quoted string; write \\\\ for a backslash, or use single quotes`;
  },
  BLOCK_AS_IMPLICIT_KEY: () =>
    'this value holds ": " (a colon and a space), which YAML reads as a second key on the same line; quote the value, or put the nested key on its own line',
  MULTILINE_IMPLICIT_KEY: () => "a key runs over more than one line; write the key and its colon on one line",
  MISSING_CHAR: (raw) => {
    const quote = /Missing closing (["'])quote/.exec(raw)?.[1];
    if (quote !== undefined) return `this quoted string is never closed; add the closing ${quote}`;
    if (/followed by map values/.test(raw)) return "a key needs a colon and a value after it (key: value)";
    if (/without - indicator/.test(raw))
      return 'a list item starts with "- "; add it, or line the line up with the key it belongs to';
    return "a character is missing here (a closing bracket, a quote, a colon or a comma); check this line";
  },
  UNEXPECTED_TOKEN: (raw) => {
    const bracket = /flow-(seq|map)-end/.exec(raw)?.[1];
    if (bracket !== undefined) {
      const [open, close] = bracket === "seq" ? ["[", "]"] : ["{", "}"];
      return `this ${close} closes no ${open}; remove it`;
    }
    if (/scalar at node end/.test(raw))
      return "text follows the end of a quoted value; inside single quotes write '' for a quote (it''s), or use double quotes";
    return "unexpected text here; check this line's quoting, brackets and indentation";
  },
  BLOCK_IN_FLOW: () =>
    "inside [ ] or { } every entry is on the same footing: separate entries with commas, and write no - item or key on a line of its own",
  KEY_OVER_1024_CHARS: () => "a key is longer than 1024 characters; shorten it",
  BAD_DIRECTIVE: () => "a %directive is not allowed in policy files; remove it",
  BAD_ALIAS: () => ANCHORS_AND_TAGS,
  ALIAS_PROPS: () => ANCHORS_AND_TAGS,
  MULTIPLE_ANCHORS: () => ANCHORS_AND_TAGS,
  MULTIPLE_TAGS: () => ANCHORS_AND_TAGS,
  BAD_PROP_ORDER: () => ANCHORS_AND_TAGS,
  TAG_RESOLVE_FAILED: (raw) =>
    `${/tag: (\S+)/.exec(raw)?.[1] ?? "this tag"} is a custom tag, and custom tags are not allowed in policy files; remove it`,
  MULTIPLE_DOCS: () =>
    "a policy file holds one YAML document; remove this --- and what follows, or move it to its own file",
};

/** What toolgate says about a parser error: the table's message, or the parser's with what to check. */
export function yamlProblemMessage(error: YamlParserError): string {
  const raw = error.message.split("\n")[0] ?? "";
  const message = MESSAGES[error.code]?.(raw);
  if (message !== undefined) return message;
  const said = raw.charAt(0).toLowerCase() + raw.slice(1);
  return `this is not well-formed YAML (${said}); check this line's quoting, brackets and indentation`;
}
