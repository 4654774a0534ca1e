/**
 * `verify`: for each property, every valid call of its tools that its `where` may select is searched for one that
 * gets the forbidden decision (`never`) or another decision (`always`). No such call: `holds`. A call found, built as
 * a concrete call and confirmed by the real controller (the validators, the policy's `explain`, the mode) and by
 * the `where` condition compiled by the runtime: `fails`, with that call as the witness. Anything else — a call that
 * may exist but that the engine cannot build or the controller does not confirm, a search past its budget — is
 * `unknown`, with the reason. Never a wrong `holds`: the search over-approximates what it cannot model exactly.
 */
import { bundleParts } from "../bundle/bundle-parts.js";
import type { PolicyBundle } from "../bundle/policy-bundle.js";
import { assembleController } from "../runtime/assemble.js";
import { type ConditionSpec, compileCondition, readField, splitFieldPath } from "../runtime/condition.js";
import type { ToolController } from "../runtime/controller.js";
import { InternalError } from "../runtime/errors.js";
import { parseRegexTree, type RegexNode } from "../runtime/match/regex/syntax.js";
import { applyMode, type ControllerMode } from "../runtime/mode.js";
import { ANNOTATIONS } from "../runtime/schema-plan.js";
import type {
  ArgumentValidator,
  JsonSchema,
  PolicyAction,
  StatementSource,
  ToolContext,
} from "../runtime/types.js";
import { AutomataPool } from "./automata.js";
import { ACTION_BIT, ToolDecision } from "./decision-model.js";
import { TooComplex } from "./dfa.js";
import { firstWordStarts, type LineStart, lineStartsRegex, plainFirstWord } from "./facts.js";
import { FieldDomain } from "./field-domain.js";
import { type Atom, AtomTable, atomsOf, evaluate, F, type Formula, T, U } from "./formula.js";
import { mayBeMissing, schemaOfField } from "./schema-facts.js";
import { type Goal, MISSED, type Model, REACHED, searchModels } from "./search.js";
import { fillRequired, setPath } from "./witness.js";

/** One property as the loader hands it over. */
export interface Property {
  readonly id: string;
  readonly tools: readonly string[];
  /** The argument condition that selects calls (every call when absent). */
  readonly where?: ConditionSpec;
  /** The context condition that selects calls (every context when absent). */
  readonly context?: ConditionSpec;
  /** `never`: no selected valid call gets `action`; `always`: every one gets exactly it. */
  readonly kind: "never" | "always";
  readonly action: PolicyAction;
  readonly source?: StatementSource;
}

/** A call that shows a property fails, with the decision the controller gave it. */
export interface Witness {
  readonly tool: string;
  readonly arguments: unknown;
  readonly context: ToolContext;
  readonly decision: PolicyAction;
}

/** How one property came out. */
export interface PropertyResult {
  readonly id: string;
  readonly status: "holds" | "fails" | "unknown";
  readonly witness?: Witness;
  readonly reason?: string;
  readonly source?: StatementSource;
}

/** A controller whose handlers never run: it prepares and decides, as `explain` does. */
export function decisionOnly(
  bundle: PolicyBundle,
  validators: ReadonlyMap<string, ArgumentValidator>,
): ToolController {
  const never = () => {
    throw new InternalError("verification never runs handlers");
  };
  const handlers = Object.fromEntries(bundle.tools.map((tool) => [tool.name, never]));
  return assembleController(bundleParts(bundle, validators), { handlers });
}

/** Builds a call's arguments and context from a model's concrete values. */
export function callOf(
  model: Model,
  fields: readonly FieldDomain[],
  argumentsSchema: JsonSchema,
  contextSchema: JsonSchema | null,
): { arguments: Record<string, unknown>; context: Record<string, unknown> } {
  const args: Record<string, unknown> = {};
  const context: Record<string, unknown> = {};
  for (const field of fields) {
    const value = model.values.get(field.ref.key);
    if (value === undefined || value.value === undefined) continue;
    // A copy: a field below this one may be set inside it, and the model's value (a literal of the policy, frozen)
    // is not the call's to change.
    setPath(field.ref.scope === "arguments" ? args : context, field.ref.path, structuredClone(value.value));
  }
  fillRequired(argumentsSchema, argumentsSchema, args);
  if (contextSchema !== null) fillRequired(contextSchema, contextSchema, context);
  return { arguments: args, context };
}

/** What the verifier knows of one tool for one question: its atoms, fields and decision. */
export class ToolQuestion {
  readonly table = new AtomTable();
  readonly fields: FieldDomain[] = [];
  readonly argumentsSchema: JsonSchema;
  readonly contextSchema: JsonSchema | null;

  readonly #pool: AutomataPool;

  constructor(
    argumentsSchemas: readonly JsonSchema[],
    contextSchemas: readonly (JsonSchema | null)[],
    pool: AutomataPool = new AutomataPool(),
  ) {
    this.#pool = pool;
    this.argumentsSchema = argumentsSchemas[0] as JsonSchema;
    this.contextSchema = contextSchemas[0] ?? null;
    this.#argumentsSchemas = argumentsSchemas;
    this.#contextSchemas = contextSchemas;
  }

  readonly #argumentsSchemas: readonly JsonSchema[];
  readonly #contextSchemas: readonly (JsonSchema | null)[];

  /**
   * Groups the atoms made so far by field, with each field's schema on every side.
   * @param priority - per atom, how early the search should decide it (lower first): the atoms that decide most
   *   (a property's own condition, then deny, ask and allow statements) prune most.
   */
  buildFields(priority: ReadonlyMap<number, number> = new Map()): void {
    const byField = new Map<string, Atom[]>();
    const ordered = [...this.table.atoms].sort(
      (a, b) => (priority.get(a.id) ?? 9) - (priority.get(b.id) ?? 9) || a.id - b.id,
    );
    for (const atom of ordered) {
      const list = byField.get(atom.field.key);
      if (list === undefined) byField.set(atom.field.key, [atom]);
      else list.push(atom);
    }
    for (const atoms of byField.values()) {
      const ref = (atoms[0] as Atom).field;
      const roots = ref.scope === "arguments" ? this.#argumentsSchemas : this.#contextSchemas;
      const sides = roots.map((root) => ({
        schema: schemaOfField(root, ref.path),
        missingAllowed: mayBeMissing(root, ref.path),
      }));
      this.fields.push(new FieldDomain(ref, atoms, sides, this.#pool));
    }
    // Few options first: their choices prune the string searches that follow.
    this.fields.sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * The search order of atoms: the decisions' own first atoms (whether a command may be compound), those of the given
 * formulas, then by the strictest statement reading them.
 */
export function searchPriority(
  first: readonly Formula[],
  decisions: readonly ToolDecision[],
): Map<number, number> {
  const out = new Map<number, number>();
  for (const d of decisions) {
    for (const [atom, rank] of d.atomRanks()) out.set(atom, Math.min(out.get(atom) ?? 9, 3 - rank));
  }
  for (const f of first) for (const atom of atomsOf(f)) out.set(atom, 0);
  for (const d of decisions) for (const atom of d.firstAtoms) out.set(atom, -1);
  return out;
}

function rank(field: FieldDomain): number {
  return field.options().some((o) => o.kind === "strings") ? 1 : 0;
}

/** One tool of a verification: its question (atoms, fields) and its decision, shared by every property on it. */
interface ToolSetup {
  readonly question: ToolQuestion;
  readonly decision: ToolDecision;
  /** Each property's conditions on this tool, by property. */
  readonly conditions: Map<Property, { readonly where: Formula; readonly context: Formula }>;
}

/** The order in which a search decides each field's atoms: those the goal reads, most deciding first. */
export function searchOrder(
  fields: readonly FieldDomain[],
  relevant: ReadonlySet<number>,
  priority: ReadonlyMap<number, number>,
): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const field of fields) {
    const indices = field.atoms.map((a, i) => [a, i] as const).filter(([a]) => relevant.has(a.id));
    indices.sort(([a], [b]) => (priority.get(a.id) ?? 9) - (priority.get(b.id) ?? 9) || a.id - b.id);
    out.set(
      field.ref.key,
      indices.map(([, i]) => i),
    );
  }
  return out;
}

/** The keywords a `command` field's schema may have for {@link partsDecide}: none narrows a part's text. */
const PLAIN_STRING_KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "minLength",
  "maxLength",
  ...ANNOTATIONS,
]);

/**
 * Whether operators select a compound command only where they select one of its parts: one `command` operator (it
 * may match a compound command only where it may match a part), `not` of one (a compound command is certainly
 * covered by prefixes when each of its parts is, so one that is not certainly covered has a part that is not), or a
 * `regex` of a fixed text that stays in the part holding it ({@link partLiteral}).
 */
function onePartCommand(operators: unknown): boolean {
  if (operators === null || typeof operators !== "object") return false;
  const keys = Object.keys(operators);
  if (keys.length !== 1) return false;
  if (keys[0] === "command") return true;
  if (keys[0] === "regex") return partLiteral((operators as { regex: unknown }).regex) !== undefined;
  if (keys[0] !== "not") return false;
  const inner = (operators as { not: unknown }).not;
  return inner !== null && typeof inner === "object" && Object.keys(inner).length === 1 && "command" in inner;
}

/**
 * Characters a fixed text may hold and stay within one word or redirection of a simple command: printable ASCII but
 * blanks, the separators `;`, `&`, `|`, the redirections' `<` and `>`, and the quoting characters `'`, `"`, `\`.
 */
const PART_LITERAL = /^[!#-%(-:=?-[\]-{}~]+$/;

/**
 * The text a `regex` value matches anywhere, when it is a fixed text (`\$`, `sudo`, `--force`) of characters that a
 * compound command keeps in the part that holds them ({@link PART_LITERAL}): the runtime renders each part from its
 * words and redirections (compound-command.ts), quoting a word whole, so a text inside one word or redirection of
 * the string is inside that part too. Undefined for any other value (anchors, classes, flags, quantifiers).
 */
export function partLiteral(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  let text = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as string;
    if (c === "\\") {
      const next = value[i + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) return undefined;
      text += next;
      i++;
    } else if ("^$.*+?()[]{}|".includes(c)) return undefined;
    else text += c;
  }
  return PART_LITERAL.test(text) ? text : undefined;
}

/** Characters the runtime writes a word of a part with, unquoted (compound-command.ts). */
const UNQUOTED_WORD = /^[A-Za-z0-9_\-./,:@%+=]+$/;

/** Whether a line start is one the parts keep: a plain first word, then words the runtime writes unquoted. */
function partWords({ words, last }: LineStart): boolean {
  // Only how the first word starts (`^sh`, `prefix: python`): `firstWordStarts` read a text that is no redirection.
  if (words.length === 0) return last !== undefined && UNQUOTED_WORD.test(last) && !/^[0-9=]/.test(last);
  if (!plainFirstWord(words[0] as string)) return false;
  if (!words.every((w) => UNQUOTED_WORD.test(w) && !w.startsWith("="))) return false;
  return last === undefined || UNQUOTED_WORD.test(last);
}

/**
 * The starts of a command line, one of which it has when an operator selects it by its start: `prefix: "npm
 * install"` (the words, the last of which the line may continue), or a `regex` whose start names a plain first word
 * and words after it (`^rm `, `^rm\\s`, `^git push`, `^npm test$`, `^git\\s+(push|commit)\\b`, `^(curl|wget)\\s`:
 * `lineStartsRegex`), each a word the runtime writes unquoted. A pattern that goes on (`^git log.* -p`) selects
 * only lines that start so: what it says after is not read (its starts select more). Undefined for any other
 * operator.
 */
export function lineStartOf(operators: unknown): readonly LineStart[] | undefined {
  if (operators === null || typeof operators !== "object") return undefined;
  const keys = Object.keys(operators);
  if (keys.length !== 1) return undefined;
  const value = (operators as Record<string, unknown>)[keys[0] as string];
  if (typeof value !== "string") return undefined;
  let starts: readonly LineStart[];
  if (keys[0] === "prefix") {
    const words = value.split(" ");
    const last = words.pop() as string;
    starts = [last === "" ? { words } : { words, last }];
  } else if (keys[0] === "regex") {
    const read = lineStartsRegex(value);
    if (read === undefined) return firstWordStartOf(keys[0], value);
    starts = read;
  } else return undefined;
  if (starts.every(partWords)) return starts;
  return firstWordStartOf(keys[0], value);
}

/** The starts of a line whose operator names only how its first word starts (`firstWordStarts`): no whole word. */
function firstWordStartOf(operator: string, value: string): readonly LineStart[] | undefined {
  const texts = firstWordStarts(operator, value);
  if (texts === undefined) return undefined;
  const starts = texts.map((last): LineStart => ({ words: [], last }));
  return starts.every(partWords) ? starts : undefined;
}

/** A regex node's items in sequence (a concatenation's items, nothing for the empty pattern, else itself). */
function itemsOf(node: RegexNode): readonly RegexNode[] {
  if (node.kind === "concat") return node.items;
  return node.kind === "empty" ? [] : [node];
}

/** A node as comparable text: its structure without the offsets the parser notes. */
function shapeOf(nodes: readonly RegexNode[]): string {
  return JSON.stringify(nodes, (key, value) => (key === "offset" ? undefined : value));
}

/** Whether every character a node may read passes `test`, and whether it reads at least one (`min`). */
function reads(node: RegexNode, test: (cp: number) => boolean): { ok: boolean; min: number } {
  switch (node.kind) {
    case "empty":
      return { ok: true, min: 0 };
    case "char":
      return { ok: test(node.cp), min: 1 };
    case "set": {
      if (node.negated) return { ok: false, min: 1 };
      for (let i = 0; i < node.ranges.length; i += 2)
        for (let cp = node.ranges[i] as number; cp <= (node.ranges[i + 1] as number); cp++)
          if (!test(cp)) return { ok: false, min: 1 };
      return { ok: true, min: 1 };
    }
    case "concat":
    case "alt": {
      const all = node.items.map((item) => reads(item, test));
      const mins = all.map((r) => r.min);
      return {
        ok: all.every((r) => r.ok),
        min: node.kind === "concat" ? mins.reduce((a, b) => a + b, 0) : Math.min(...mins),
      };
    }
    case "repeat": {
      const inner = reads(node.child, test);
      return { ok: inner.ok, min: inner.min * node.min };
    }
    case "assert":
      return { ok: false, min: 0 };
  }
}

const SEPARATOR_CHAR = (cp: number): boolean => cp === 0x3b || cp === 0x26 || cp === 0x7c || cp === 0x0a;
/** What `\s` reads (the regex engine's white space): a blank, a newline, or a character outside the safe subset. */
const SPACE_CHAR = (cp: number): boolean => /^\s$/u.test(String.fromCodePoint(cp));

/** Endings of a word after a pattern's fixed text: `\s` or the end of the string, in the forms people write. */
const WORD_ENDS = ["(?:\\s|$)", "(\\s|$)", "(?: |$)", "( |$)", "\\s", " "];

/**
 * The fixed text a pattern ends with after a command separator and blanks, when a `regex` operator selects a line
 * only where a later simple command starts with it: `\\| *sh`, `;\\s*rm`, `&&\\s*curl(\\s|$)`, perhaps after
 * anything (`curl.*\\|\\s*sh`). Parsed as the runtime parses the pattern: what precedes the text ends with
 * items that read only `;`, `&`, `|` or newlines (at least one) and then only white space; the text is made of
 * characters the runtime writes a word with unquoted, not all digits (a digit before `>` is a redirection).
 * Returns the pattern of the separator, blanks and text (without what precedes them), the text, and whether a
 * word end follows it. Undefined for any other operator.
 */
export function laterPartStartOf(
  operators: unknown,
): { readonly run?: string; readonly text: string; readonly end: boolean } | undefined {
  if (operators === null || typeof operators !== "object") return undefined;
  const keys = Object.keys(operators);
  if (keys.length !== 1 || keys[0] !== "regex") return undefined;
  const value = (operators as { regex: unknown }).regex;
  if (typeof value !== "string") return undefined;
  // A word boundary last (`\\| *sh\\b`) only narrows what the pattern selects: read without it, the word may go on.
  if (/(?:^|[^\\])(?:\\\\)*\\b$/.test(value)) {
    const read = laterPartStartOf({ regex: value.slice(0, -2) });
    return read?.end === false ? read : undefined;
  }
  const whole = parseRegexTree(value);
  if (whole === undefined || whole.kind !== "concat") return undefined;
  // `^sh`: the line's first simple command starts with the text (a line that is not split starts with it).
  for (const end of [...WORD_ENDS.filter((e) => value.endsWith(e)).map((e) => e.length), 0]) {
    const text = value.startsWith("^") ? wordStart(value.slice(1, value.length - end)) : undefined;
    if (text !== undefined) return { text, end: end > 0 };
  }
  const tried = [
    ...WORD_ENDS.filter((e) => value.endsWith(e)).map((e) => ({
      body: value.slice(0, -e.length),
      end: true,
    })),
    { body: value, end: false },
  ];
  for (const { body, end } of tried) {
    for (let cut = 1; cut < body.length; cut++) {
      const text = wordStart(body.slice(cut));
      if (text === undefined) continue;
      const head = body.slice(0, cut);
      const headTree = parseRegexTree(head);
      if (headTree === undefined) continue;
      const suffix = end ? value.slice(body.length) : "";
      const rest = [...itemsOf(parseRegexTree(text) as RegexNode)];
      if (suffix !== "") rest.push(...itemsOf(parseRegexTree(suffix) as RegexNode));
      if (shapeOf([...itemsOf(headTree), ...rest]) !== shapeOf(itemsOf(whole))) continue;
      // The separator and blanks: the longest end of the head made of them (`&&\\s*`, not `&\\s*`). A match of the
      // pattern lies in one quoted string or outside quotes (its text holds no quote), so the part that holds a quoted
      // match holds all of it.
      let found: { readonly run: string; readonly text: string; readonly end: boolean } | undefined;
      for (let from = head.length - 1; from >= 0; from--) {
        const runTree = parseRegexTree(head.slice(from));
        const before = parseRegexTree(head.slice(0, from));
        if (runTree === undefined || before === undefined) continue;
        if (shapeOf([...itemsOf(before), ...itemsOf(runTree)]) !== shapeOf(itemsOf(headTree))) continue;
        const items = itemsOf(runTree);
        let i = items.length;
        // Blanks, but a newline alone is a separator.
        while (
          i > 0 &&
          reads(items[i - 1] as RegexNode, SPACE_CHAR).ok &&
          !reads(items[i - 1] as RegexNode, SEPARATOR_CHAR).ok
        )
          i--;
        const separators = items.slice(0, i);
        if (separators.length === 0 || !separators.every((item) => reads(item, SEPARATOR_CHAR).ok)) continue;
        if (separators.reduce((n, item) => n + reads(item, SEPARATOR_CHAR).min, 0) === 0) continue;
        const close = end ? "(?:\\s|$)" : "";
        found = { run: `(?:${head.slice(from)})(?:${text})${close}`, text, end };
      }
      return found;
    }
  }
  return undefined;
}

const PLAIN_CHAR = (cp: number): boolean => UNQUOTED_WORD.test(String.fromCodePoint(cp));
const PLAIN_NOT_DIGIT = (cp: number): boolean => PLAIN_CHAR(cp) && !(cp >= 0x30 && cp <= 0x39);

/**
 * A pattern of the start of a word, as the runtime writes a word unquoted: it parses, reads only those characters
 * (`sh`, `(ba)?sh`, `a\\.b`), at least one, and each string it matches holds a character other than a digit (a
 * digit before `>` is a redirection's descriptor, not a word). Undefined otherwise.
 */
function wordStart(pattern: string): string | undefined {
  const tree = parseRegexTree(pattern);
  if (tree === undefined) return undefined;
  const read = reads(tree, PLAIN_CHAR);
  if (!read.ok || read.min === 0) return undefined;
  const items = itemsOf(tree);
  return items.some((item) => {
    const r = reads(item, PLAIN_NOT_DIGIT);
    return r.ok && r.min > 0;
  })
    ? pattern
    : undefined;
}

const escapeWords = (text: string): string => text.replace(/[.+]/g, (c) => `\\${c}`);

/**
 * The pattern that selects the first part of every compound command that starts as `start` says (and every whole
 * string that does). A compound command is split only inside the shell's safe subset, and the runtime writes each
 * part back from its words, joined by single blanks, a word unquoted when it can be and in single quotes
 * otherwise: the whole words are written as they are; the last one, which the line may continue, may be written in
 * quotes from its start. One word alone is "the first word is this word"; a start that ends the line ends the part.
 */
function partStartPattern({ words, last, ends, blanks }: LineStart): string {
  // The first word starts with the text: written unquoted, or in quotes from its start.
  if (words.length === 0) return `'?${escapeWords(last as string)}`;
  if (blanks === true) {
    // Blanks of any kind: a newline among them ends the first part after any whole word.
    let tail = last !== undefined ? `(?:$|\\s+'?${escapeWords(last)})` : ends === true ? "$" : "(?:$|\\s)";
    for (let i = words.length - 1; i >= 1; i--) tail = `(?:$|\\s+${escapeWords(words[i] as string)}${tail})`;
    return `${escapeWords(words[0] as string)}${tail}`;
  }
  const text = escapeWords(words.join(" "));
  if (ends === true) return `${text}$`;
  // Whole words (`npm install `): the part ends after them or goes on with a blank (the runtime writes the words
  // back joined by single blanks).
  if (last === undefined) return `${text}(?:\\s|$)`;
  return `${text} '?${escapeWords(last)}`;
}

/** {@link partStartPattern} of each start: the part starts with one of them. */
function partStartOperator(starts: readonly LineStart[]): { regex: string } {
  if (starts.length === 1) return { regex: `^${partStartPattern(starts[0] as LineStart)}` };
  return { regex: `^(?:${starts.map(partStartPattern).join("|")})` };
}

/** The schema of the field at `path` below `properties`, or `undefined` when it is not declared there. */
function declaredField(schema: JsonSchema, path: readonly string[]): JsonSchema | undefined {
  let current: unknown = schema;
  for (const segment of path) {
    const properties = (current as { properties?: Record<string, unknown> } | null)?.properties;
    if (properties === undefined || properties === null || typeof properties !== "object") return undefined;
    if (!Object.hasOwn(properties, segment)) return undefined;
    current = properties[segment];
  }
  return current !== null && typeof current === "object" ? (current as JsonSchema) : undefined;
}

/**
 * The tool's input schema with no length bounds on its command fields, when each of those fields is declared and
 * its schema says nothing of its text but its length (a part of a compound command is then a valid value of the
 * field, whatever its length); undefined otherwise.
 */
export function partsSchema(
  inputSchema: JsonSchema,
  commandPaths: readonly (readonly string[])[],
): JsonSchema | undefined {
  let schema = inputSchema;
  for (const path of commandPaths) {
    const field = declaredField(inputSchema, path);
    if (field === undefined || Object.keys(field).some((k) => !PLAIN_STRING_KEYWORDS.has(k)))
      return undefined;
    const without = withoutLengths(schema, path);
    if (without === undefined) return undefined;
    schema = without;
  }
  return schema;
}

/** A copy of the schema without `minLength` and `maxLength` on the field at `path`, or `undefined`. */
function withoutLengths(schema: JsonSchema, path: readonly string[]): JsonSchema | undefined {
  if (path.length === 0) {
    const { minLength: _min, maxLength: _max, ...rest } = schema as Record<string, unknown>;
    return rest as JsonSchema;
  }
  const properties = (schema as { properties?: Record<string, JsonSchema> }).properties;
  const [head, ...tail] = path as [string, ...string[]];
  if (properties === undefined || !Object.hasOwn(properties, head)) return undefined;
  const inner = withoutLengths(properties[head] as JsonSchema, tail);
  if (inner === undefined) return undefined;
  return { ...schema, properties: { ...properties, [head]: inner } } as JsonSchema;
}

/**
 * Whether a property may be decided without the parts of compound commands: the runtime decides a compound command
 * (`a && b`) by the strictest of its parts' decisions when the whole string falls back, so a compound command is
 * allowed only when every part is, and is not denied only when no part is. For `never: allow` and `always: deny`,
 * when the property's `where` selects a compound command only if it selects one of its parts — it reads each field
 * split into parts with one `command` operator alone, or `not` of one ({@link onePartCommand}; both checked against
 * the runtime in test/verify/compound-parts.test.ts) — a compound command that breaks the property has a
 * part that breaks it too: a simple command, decided as a whole. The part is a call of the tool as long as the
 * field's schema says nothing of its text but its length (lengths are dropped for the search; a witness is still
 * confirmed by the real controller).
 */
export function partsDecide(
  property: Property,
  inputSchema: JsonSchema,
  commandPaths: readonly (readonly string[])[],
): boolean {
  // One field only: with two, a part (the first field split, the second still compound) would be split again when
  // decided as a call of its own, so it would not be the simple command the argument below needs.
  if (commandPaths.length !== 1) return false;
  const monotone =
    (property.kind === "never" && property.action === "allow") ||
    (property.kind === "always" && property.action === "deny");
  if (!monotone) return false;
  for (const path of commandPaths) {
    const field = declaredField(inputSchema, path);
    if (field === undefined) return false;
    if (Object.keys(field).some((k) => !PLAIN_STRING_KEYWORDS.has(k))) return false;
    const key = path.join("\u0000");
    for (const [name, operators] of Object.entries(property.where ?? {})) {
      const read = splitFieldPath(name);
      // A condition on an object that holds the field sees the part in place of the whole: not modelled.
      if (read.length < path.length && read.every((segment, i) => segment === path[i])) return false;
      if (read.join("\u0000") !== key) continue;
      if (
        !onePartCommand(operators) &&
        lineStartOf(operators) === undefined &&
        laterPartStartOf(operators) === undefined
      )
        return false;
    }
  }
  return true;
}

/**
 * The `where`s the parts are searched with, any of which may select a part: an operator that selects a command line
 * by its start ({@link lineStartOf}) becomes one that selects the first part of every compound command it selects,
 * and every whole string it selects ({@link partStartOperator}); one that selects a line where a later simple
 * command starts with a text ({@link laterPartStartOf}) selects a part that starts with it (perhaps in quotes, as
 * the runtime writes a word back), or one that holds the separator and the text (inside a quoted word, or a whole
 * string that is not split). A witness is still confirmed with the property's own `where`.
 */
export function partsWhere(
  where: ConditionSpec | undefined,
  commandPaths: readonly (readonly string[])[],
): readonly (ConditionSpec | undefined)[] {
  if (where === undefined) return [undefined];
  const keys = new Set(commandPaths.map((p) => p.join("\u0000")));
  const out: Record<string, unknown> = {};
  let later: { readonly name: string; readonly run?: string; readonly start: string } | undefined;
  for (const [name, operators] of Object.entries(where)) {
    const onCommand = keys.has(splitFieldPath(name).join("\u0000"));
    const start = onCommand ? lineStartOf(operators) : undefined;
    const after = onCommand && start === undefined ? laterPartStartOf(operators) : undefined;
    if (after !== undefined && later === undefined) {
      const close = after.end ? "(?:\\s|$)" : "";
      later = { name, ...after, start: `^'?(?:${after.text})${close}` };
    }
    out[name] = start === undefined ? operators : partStartOperator(start);
  }
  if (later === undefined) return [out as ConditionSpec];
  const starts = { ...out, [later.name]: { regex: later.start } } as ConditionSpec;
  if (later.run === undefined) return [starts];
  return [{ ...out, [later.name]: { regex: later.run } } as ConditionSpec, starts];
}

/** A formula true where any of `formulas` is (Kleene: not all of their negations). */
function anyOf(formulas: readonly Formula[]): Formula {
  if (formulas.length === 1) return formulas[0] as Formula;
  return { kind: "not", of: { kind: "and", of: formulas.map((f) => ({ kind: "not", of: f })) } };
}

/** Options of {@link Verifier}. */
export interface VerifierOptions {
  /** Visits per search for a call that breaks a property; default the search's own (tests set a small one). */
  readonly budget?: number;
}

/** Verifies properties against a loaded bundle. */
export class Verifier {
  readonly #bundle: PolicyBundle;
  readonly #controller: ToolController;
  readonly #mode: ControllerMode;
  readonly #options: VerifierOptions;
  readonly #tools = new Map<string, ToolSetup>();
  /** The automata of this verification, shared by the fields of every tool. */
  readonly #pool = new AutomataPool();

  constructor(
    bundle: PolicyBundle,
    validators: ReadonlyMap<string, ArgumentValidator>,
    options: VerifierOptions = {},
  ) {
    this.#bundle = bundle;
    this.#controller = decisionOnly(bundle, validators);
    this.#mode = bundle.mode;
    this.#options = options;
  }

  /** Every property's result, in order. The automata of a tool are built once for all its properties. */
  verify(properties: readonly Property[]): PropertyResult[] {
    const byTool = new Map<string, Property[]>();
    for (const p of properties) {
      for (const tool of p.tools) {
        const list = byTool.get(tool);
        if (list === undefined) byTool.set(tool, [p]);
        else list.push(p);
      }
    }
    for (const [tool, list] of byTool) this.#setup(tool, list);
    return properties.map((p) => this.verifyOne(p));
  }

  /**
   * The setup of a tool with the conditions of these properties (made once; later properties are added to it).
   * @param parts - the setup for properties decided on the parts of compound commands (see {@link partsDecide}):
   *   the fields the tool reads with `command` without their length bounds (a part may be longer or shorter than
   *   the whole string it came from).
   * @param alone - a setup of these properties alone, made anew and not kept (see {@link verifyOne}).
   */
  #setup(tool: string, properties: readonly Property[], parts = false, alone = false): ToolSetup | undefined {
    const key = parts ? `${tool}\u0000parts` : tool;
    let setup = alone ? undefined : this.#tools.get(key);
    const missing = properties.filter((p) => setup === undefined || !setup.conditions.has(p));
    if (setup !== undefined && missing.length === 0) return setup;
    const spec = this.#bundle.tools.find((t) => t.name === tool);
    if (spec === undefined) return undefined;
    // The fields are built from every atom known when the setup is made: a property added later makes it anew.
    const all = setup === undefined ? properties : [...setup.conditions.keys(), ...missing];
    let schema = spec.inputSchema;
    if (parts) {
      const paths = new ToolDecision(new AtomTable(), tool, this.#bundle.statements, this.#mode)
        .commandFieldPaths;
      for (const path of paths) schema = withoutLengths(schema, path) ?? schema;
    }
    const question = new ToolQuestion([schema], [this.#bundle.contextSchema], this.#pool);
    const decision = new ToolDecision(question.table, tool, this.#bundle.statements, this.#mode);
    const conditions = new Map<Property, { where: Formula; context: Formula }>();
    for (const p of all) {
      conditions.set(p, {
        where: parts
          ? anyOf(
              partsWhere(p.where, decision.commandFieldPaths).map((w) =>
                question.table.condition(w, "arguments"),
              ),
            )
          : question.table.condition(p.where, "arguments"),
        context: question.table.condition(p.context, "context"),
      });
    }
    question.buildFields();
    setup = { question, decision, conditions };
    if (!alone) this.#tools.set(key, setup);
    return setup;
  }

  verifyOne(property: Property): PropertyResult {
    const base = { id: property.id, ...(property.source === undefined ? {} : { source: property.source }) };
    const unknown: string[] = [];
    for (const tool of property.tools) {
      let result:
        | { status: "holds" }
        | { status: "fails"; witness: Witness }
        | { status: "unknown"; reason: string };
      result = this.#verifyGuarded(property, tool, false);
      // The tool's setup is shared by every property of the run: the other properties' operators make its fields
      // larger (an array field past its element operators, an automaton past its bound). Alone, the property's
      // answer does not depend on what else is verified with it.
      if (result.status === "unknown" && this.#sharesSetup(tool, property))
        result = this.#verifyGuarded(property, tool, true);
      if (result.status === "fails") return { ...base, status: "fails", witness: result.witness };
      // Only an explicit `holds` is one: any other answer is not known (fail closed).
      if (result.status !== "holds") {
        const reason = result.status === "unknown" ? result.reason : "the engine gave no answer";
        unknown.push(property.tools.length > 1 ? `${tool}: ${reason}` : reason);
      }
    }
    if (unknown.length > 0) return { ...base, status: "unknown", reason: unknown.join("; ") };
    return { ...base, status: "holds" };
  }

  /** {@link #verifyTool}, with an automaton too large to build as an `unknown`. */
  #verifyGuarded(
    property: Property,
    tool: string,
    alone: boolean,
  ): { status: "holds" } | { status: "fails"; witness: Witness } | { status: "unknown"; reason: string } {
    try {
      return this.#verifyTool(property, tool, alone);
    } catch (error) {
      if (!(error instanceof TooComplex)) throw error;
      return { status: "unknown", reason: `too large to decide here (${error.message})` };
    }
  }

  /** Whether the tool's shared setup holds other properties' conditions besides this one's. */
  #sharesSetup(tool: string, property: Property): boolean {
    return [tool, `${tool}\u0000parts`].some((key) => {
      const setup = this.#tools.get(key);
      return setup !== undefined && [...setup.conditions.keys()].some((p) => p !== property);
    });
  }

  /**
   * @param alone - search a setup made for this property alone (not kept), not the tool's shared one.
   */
  #verifyTool(
    property: Property,
    tool: string,
    alone = false,
  ): { status: "holds" } | { status: "fails"; witness: Witness } | { status: "unknown"; reason: string } {
    const whole = this.#setup(tool, [property], false, alone);
    if (whole === undefined) return { status: "unknown", reason: `tool ${tool} is not declared` };
    const spec = this.#bundle.tools.find((t) => t.name === tool);
    const byParts =
      spec !== undefined && partsDecide(property, spec.inputSchema, whole.decision.commandFieldPaths);
    if (!byParts) return this.#search(property, tool, whole, false);
    const parts = this.#search(property, tool, this.#setup(tool, [property], true, alone) as ToolSetup, true);
    if (parts.status !== "unknown") return parts;
    // The parts' `where` may select more than the property's (a pattern read by its start): the whole strings may
    // still decide it.
    const strings = this.#search(property, tool, whole, false);
    return strings.status === "unknown" ? parts : strings;
  }

  /** The search for a call that breaks a property, on whole strings or on the parts of compound commands. */
  #search(
    property: Property,
    tool: string,
    setup: ToolSetup,
    byParts: boolean,
  ): { status: "holds" } | { status: "fails"; witness: Witness } | { status: "unknown"; reason: string } {
    const { question, decision } = setup;
    const { where: whereArgs, context: whereContext } = setup.conditions.get(property) as {
      where: Formula;
      context: Formula;
    };
    const relevant = new Set<number>([
      ...atomsOf(whereArgs),
      ...atomsOf(whereContext),
      ...decision.atomRanks().keys(),
    ]);
    // Decided without the parts, the decision does not read whether a command may be compound.
    if (byParts) {
      const read = new Set([...atomsOf(whereArgs), ...atomsOf(whereContext)]);
      for (const atom of decision.firstAtoms) if (!read.has(atom)) relevant.delete(atom);
    }
    const order = searchOrder(
      question.fields,
      relevant,
      searchPriority([whereArgs, whereContext], [decision]),
    );
    const bit = ACTION_BIT[property.action];
    const goal: Goal = {
      reach: (masks) => {
        const w = evaluate(whereArgs, masks);
        const c = evaluate(whereContext, masks);
        if ((w & (T | U)) === 0 || (c & (T | U)) === 0) return MISSED;
        const selectedForSure = (w & F) === 0 && (c & F) === 0;
        const d = decision.decide(masks, !byParts);
        const bad = property.kind === "never" ? d & bit : d & ~bit;
        const good = property.kind === "never" ? d & ~bit : d & bit;
        return (bad !== 0 ? REACHED : 0) | (good !== 0 || !selectedForSure ? MISSED : 0);
      },
    };
    // First the calls the engine can build, each confirmed by the controller as it is found (the search tries every
    // atom false first, then true, then maybe, so the first calls are the plainest); the first confirmed one is the
    // witness.
    let witness: Witness | undefined;
    const concrete = searchModels(question.fields, question.table.atoms.length, goal, {
      concreteOnly: true,
      maxModels: 24,
      order,
      ...(this.#options.budget === undefined ? {} : { budget: this.#options.budget }),
      accept: (model) => {
        const call = callOf(model, question.fields, question.argumentsSchema, question.contextSchema);
        witness = this.#confirm(property, tool, call.arguments, call.context);
        if (witness === undefined && byParts)
          witness = this.#confirmJoined(property, tool, call, decision.commandFieldPaths[0] ?? []);
        return witness !== undefined;
      },
    });
    if (witness !== undefined) return { status: "fails", witness };
    const unconfirmed = concrete.models.length;
    if (unconfirmed > 0) {
      return {
        status: "unknown",
        reason: `${unconfirmed} call(s) the engine found were not confirmed by the controller`,
      };
    }
    if (!concrete.complete) return { status: "unknown", reason: "the search ran out of its budget" };
    // Then whether some call the engine cannot build may still break the property.
    const loose = searchModels(question.fields, question.table.atoms.length, goal, {
      concreteOnly: false,
      maxModels: 1,
      order,
      ...(this.#options.budget === undefined ? {} : { budget: this.#options.budget }),
    });
    const model = loose.models[0];
    if (model !== undefined) {
      const why = [...model.abstract].map(
        ([field, reason]) => `${field.replace(/^arguments:/, "")}: ${reason}`,
      );
      return {
        status: "unknown",
        reason: `no witness found, but a call may break it: ${why.join("; ") || "its values could not be built"}`,
      };
    }
    if (!loose.complete) return { status: "unknown", reason: "the search ran out of its budget" };
    return { status: "holds" };
  }

  /**
   * A part the search found, written twice joined by a separator (`npm test || npm test`): the runtime decides
   * the line by its parts, both this part, and a property that selects a line by a later part selects it.
   */
  #confirmJoined(
    property: Property,
    tool: string,
    call: { readonly arguments: unknown; readonly context: ToolContext },
    path: readonly string[],
  ): Witness | undefined {
    const part = readField(call.arguments, path);
    if (typeof part !== "string" || path.length === 0) return undefined;
    for (const separator of [" | ", " && ", "; ", " || ", "\n", "|", "&&", ";", "||"]) {
      const args = structuredClone(call.arguments) as Record<string, unknown>;
      setPath(args, path, `${part}${separator}${part}`);
      const witness = this.#confirm(property, tool, args, call.context);
      if (witness !== undefined) return witness;
    }
    return undefined;
  }

  /** The witness, when the controller and the runtime's condition agree that the call breaks the property. */
  #confirm(property: Property, tool: string, args: unknown, context: ToolContext): Witness | undefined {
    const selects = (spec: ConditionSpec | undefined, subject: unknown): boolean => {
      if (spec === undefined) return true;
      const compiled = compileCondition(spec);
      return compiled.ok && compiled.condition(subject) !== 0;
    };
    if (!selects(property.where, args) || !selects(property.context, context)) return undefined;
    const explained = this.#controller.explain(
      { callId: "verify", toolName: tool, arguments: args },
      context,
    );
    if ("callId" in explained) return undefined;
    const action = applyMode(explained.decision, this.#mode).decision.action;
    const breaks = property.kind === "never" ? action === property.action : action !== property.action;
    return breaks ? { tool, arguments: args, context, decision: action } : undefined;
  }
}
