/**
 * Block YAML files are read by a short cut (`plainBlockYaml`) when they keep to a plain subset. Whenever it gives
 * a result, the YAML parse (`parseYamlText`) reads the text without a diagnostic and gives the same data (down to
 * key order, -0 and `__proto__` keys) and the same positions; everything else is left to the YAML parse. The
 * texts come from a generator that writes block YAML line by line as people do (comments and blank lines
 * anywhere), from `yaml`'s own stringify under several option sets, both perturbed the ways people and editors
 * do (comments, blank lines, trailing spaces, an indentation off by one, a character deleted or inserted, a tab)
 * and also with Windows line ends, and from the repository's own YAML files. `TOOLGATE_YAML_RUNS` sets the
 * number of runs of each property (2000 by default).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Document, isCollection, visit } from "yaml";
import { parseYaml, parseYamlText } from "../../src/config/parse-yaml.js";
import { plainBlockYaml } from "../../src/config/plain-block-yaml.js";

const RUNS = Number(process.env.TOOLGATE_YAML_RUNS ?? 2000);
/** Long runs need more than the default minute. */
const LONG = { timeout: Math.max(60_000, RUNS * 20) };
const ROOT = join(import.meta.dirname, "..", "..");

/** Data compared exactly: -0 is not 0, keys keep their order, and every object is a plain one. */
function exact(value: unknown): unknown {
  if (typeof value === "number" && Object.is(value, -0)) return "-0";
  if (Array.isArray(value)) return value.map(exact);
  if (value !== null && typeof value === "object") {
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    return Object.entries(value).map(([k, v]) => [k, exact(v)]);
  }
  return value;
}

/**
 * Reads `text` both ways. When the short cut takes it, the YAML parse must take it without a diagnostic and
 * give the same data and positions (in the same order). Whether the short cut took it.
 */
function compare(text: string): boolean {
  const fast = plainBlockYaml(text);
  if (fast === undefined) return false;
  const slow = parseYamlText(text, "f.yaml");
  expect(slow.diagnostics, text).toEqual([]);
  expect(slow.ok, text).toBe(true);
  if (!slow.ok) return true;
  expect(exact(fast.data), text).toEqual(exact(slow.value.data));
  expect([...fast.positions], text).toEqual([...slow.value.positions]);
  return true;
}

// Keys and strings: words YAML reads as something else, and characters that need quoting.
const WORDS = [
  "true",
  "False",
  "yes",
  "no",
  "null",
  "NULL",
  "~",
  "0x1f",
  "0o17",
  "0o8",
  "1e3",
  "1.",
  ".5",
  "-0",
  "+1",
  "12345678901234567890",
  ".inf",
  "-.Inf",
  ".nan",
  "__proto__",
  "constructor",
  "-",
  "- a",
  "? x",
  "a: b",
  "a #b",
  "#",
  "",
  " lead",
  "trail ",
  "---",
  "...",
  "%x",
  "@x",
  "&a",
  "*a",
  "!t",
  "|",
  ">",
  "a/b~c",
];
const CHARS = [..."abcxyz019 _.:#-,'\"{}[]?!&*%@`|>~\\/", "é", "ß", "中", "😀"];
/** Characters only data holds (`yaml` writes them escaped in double quotes, or refuses the plain style). */
const CONTROL = ["\t", "\n", "\u0001", "\u0085", "\u2028", "\u00a0"];
const text = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 8 }),
  fc.string({ unit: fc.constantFrom(...CHARS, ...CONTROL), maxLength: 5 }),
  fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/),
);
const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-0, 0.5, 1e21, 2 ** 53 + 2),
);
const leaf = fc.oneof(text, number, fc.boolean(), fc.constant(null));
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    leaf,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(text, tie("value"), { maxKeys: 4 }),
  ),
}));
const top = fc.oneof(
  fc.dictionary(text, value, { minKeys: 1, maxKeys: 5 }),
  fc.array(value, { minLength: 1, maxLength: 4 }),
);

// Simple data: what a policy or tool file holds.
const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/);
const simpleLeaf = fc.oneof(
  word,
  fc.stringMatching(/^[a-z][a-z0-9 ]{0,20}[a-z]$/),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const { simple } = fc.letrec<{ simple: unknown }>((tie) => ({
  simple: fc.oneof(
    { depthSize: "small" },
    simpleLeaf,
    fc.array(tie("simple"), { maxLength: 4 }),
    fc.dictionary(word, tie("simple"), { maxKeys: 4 }),
  ),
}));
const simpleTop = fc.oneof(
  fc.dictionary(word, simple, { minKeys: 1, maxKeys: 5 }),
  fc.array(simple, { minLength: 1, maxLength: 4 }),
);

const STRING_TYPES = ["PLAIN", "QUOTE_DOUBLE", "QUOTE_SINGLE"] as const;
const options = fc.record({
  indent: fc.constantFrom(2, 4),
  indentSeq: fc.boolean(),
  defaultStringType: fc.constantFrom(...STRING_TYPES),
  defaultKeyType: fc.constantFrom(null, ...STRING_TYPES),
  lineWidth: fc.constantFrom(0, 80),
  nullStr: fc.constantFrom("null", "~", ""),
});
type Options = typeof options extends fc.Arbitrary<infer T> ? T : never;

/** `data` as `yaml` writes it in block style; the collections whose bit in `flow` is set are written in flow style. */
function write(data: unknown, opts: Options, flow: number): string {
  const doc = new Document(data);
  let index = 0;
  visit(doc, (_key, node) => {
    if (isCollection(node) && index++ > 0 && ((flow >>> (index % 31)) & 1) === 1) node.flow = true;
  });
  return doc.toString(opts);
}

/** Perturbations of a text's lines, as editors and people make them. */
const perturbation = fc.oneof(
  fc.record({ kind: fc.constant("comment-line" as const), indent: fc.nat(9), body: text }),
  fc.record({ kind: fc.constant("end-comment" as const), space: fc.boolean(), body: text }),
  fc.record({ kind: fc.constant("blank" as const), spaces: fc.nat(5) }),
  fc.record({ kind: fc.constant("trailing" as const), spaces: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant("indent" as const), more: fc.boolean() }),
  fc.record({ kind: fc.constant("break" as const), indent: fc.integer({ min: -1, max: 1 }) }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    char: fc.constantFrom(...CHARS, "\t", "\n"),
  }),
);

function perturb(
  source: string,
  changes: readonly { line: number; change: fc.ArbitraryValue<typeof perturbation> }[],
) {
  const lines = source.split("\n");
  for (const { line, change } of changes) {
    const at = line % lines.length;
    const current = lines[at] ?? "";
    switch (change.kind) {
      case "comment-line":
        lines.splice(at, 0, `${" ".repeat(change.indent)}#${change.body.replaceAll("\n", "")}`);
        break;
      case "end-comment":
        lines[at] = `${current}${change.space ? " " : ""}#${change.body}`;
        break;
      case "blank":
        lines.splice(at, 0, " ".repeat(change.spaces));
        break;
      case "trailing":
        lines[at] = current + " ".repeat(change.spaces);
        break;
      case "indent":
        lines[at] = change.more ? ` ${current}` : current.replace(/^ /, "");
        break;
      case "break": {
        // `- value` becomes `-` and the value on the next line, at its column (or one off).
        const dash = /^( *)- +/.exec(current);
        if (dash !== null) {
          const column = dash[0].length + change.indent;
          lines.splice(at, 1, `${dash[1]}-`, " ".repeat(Math.max(0, column)) + current.slice(dash[0].length));
        }
        break;
      }
      case "delete": {
        const i = current.length === 0 ? 0 : change.at % current.length;
        lines[at] = current.slice(0, i) + current.slice(i + 1);
        break;
      }
      case "insert": {
        const i = change.at % (current.length + 1);
        lines[at] = current.slice(0, i) + change.char + current.slice(i);
        break;
      }
    }
  }
  return lines.join("\n");
}

/** A small seeded generator of numbers in [0, 1) (mulberry32), so a failing text can be made again from its seed. */
function random(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Block YAML written line by line, the way people write it rather than the way `yaml` does: nested mappings and
 * sequences at indentation steps of 1 to 3, sequences at their key's column, `- key: value` and `- - item`,
 * collections on the line after their `-`, empty values, scalars and flow collections of every kind, trailing
 * comments and trailing spaces, and after any line comment lines at any indentation, blank lines and lines of
 * spaces; sometimes no newline at the end.
 */
function handWritten(seed: number): string {
  const r = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(r() * items.length)] as T;
  const chance = (p: number) => r() < p;
  const spaces = (n: number) => " ".repeat(n);
  const lines: string[] = [];
  const scalars = ["a", "b c", "1", "-2", "0x1f", "1.5", "~", "null", "true", "'q'", '"d\\t"', "x # note"];
  const flows = ["[x, y]", "{ k: v }", "[]", "{}", "[a, [b, {c: d}]]", '{ "k": [1] }'];
  const keys = ["a", "b", "c", "d", "'e'", '"f"', "g h", "i-j"];
  const noise = () => {
    while (chance(0.35)) {
      const kind = r();
      if (kind < 0.55) lines.push(`${spaces(Math.floor(r() * 9))}#${chance(0.5) ? " c" : ""}`);
      else if (kind < 0.85) lines.push("");
      else lines.push(spaces(1 + Math.floor(r() * 4)));
    }
  };
  const end = () => (chance(0.2) ? " # t" : chance(0.1) ? "  " : "");
  const line = (text: string) => {
    lines.push(text + end());
    noise();
  };
  const mapping = (indent: number, first: string | undefined, depth: number) => {
    const used = new Set<string>();
    const count = 1 + Math.floor(r() * 3);
    for (let i = 0; i < count; i++) {
      const key = pick(keys);
      const name = key.replace(/['"]/g, "");
      if (used.has(name)) continue;
      used.add(name);
      item(`${i === 0 && first !== undefined ? first : spaces(indent)}${key}:`, indent, depth, true);
    }
  };
  const sequence = (indent: number, first: string | undefined, depth: number) => {
    const count = 1 + Math.floor(r() * 3);
    for (let i = 0; i < count; i++) {
      item(`${i === 0 && first !== undefined ? first : spaces(indent)}-`, indent, depth, false);
    }
  };
  function item(head: string, indent: number, depth: number, inMapping: boolean): void {
    const x = r();
    if (depth > 4 || x < 0.35) line(`${head} ${pick(scalars)}`);
    else if (x < 0.45) line(`${head} ${pick(flows)}`);
    else if (x < 0.55) line(chance(0.5) ? head : `${head} `);
    else if (!inMapping && x < 0.7) {
      // `- key: value` or `- - item`: the collection starts on the `-` line.
      const gap = chance(0.8) ? " " : "   ";
      const at = head.length + gap.length;
      if (chance(0.6)) mapping(at, head + gap, depth + 1);
      else sequence(at, head + gap, depth + 1);
    } else {
      line(head);
      const step = 1 + Math.floor(r() * 3);
      if (inMapping && chance(0.3)) sequence(indent, undefined, depth + 1);
      else if (chance(0.5)) mapping(indent + step, undefined, depth + 1);
      else sequence(indent + step, undefined, depth + 1);
    }
  }
  noise();
  if (chance(0.5)) mapping(0, undefined, 0);
  else sequence(0, undefined, 0);
  return lines.join("\n") + (chance(0.8) ? "\n" : "");
}

describe("plain block YAML", () => {
  it("reads hand-written block texts as the YAML parse does", LONG, () => {
    let taken = 0;
    fc.assert(
      fc.property(
        fc.integer(),
        fc.array(fc.record({ line: fc.nat(), change: perturbation }), { maxLength: 2 }),
        (seed, changes) => {
          const source = handWritten(seed);
          if (compare(source)) taken++;
          compare(perturb(source, changes));
          expect(compare(source.replaceAll("\n", "\r\n"))).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
    // Every text written so is plain block YAML the short cut takes.
    expect(taken).toBe(RUNS);
  });

  it("reads what the YAML parse reads, or leaves it to the YAML parse", LONG, () => {
    let taken = 0;
    let perturbedTaken = 0;
    fc.assert(
      fc.property(
        top,
        options,
        fc.nat(),
        fc.array(fc.record({ line: fc.nat(), change: perturbation }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (data, opts, flow, changes, lastNewline) => {
          const written = write(data, opts, flow);
          if (compare(written)) taken++;
          const perturbed = perturb(written, changes);
          if (compare(lastNewline ? perturbed : perturbed.replace(/\n+$/, ""))) perturbedTaken++;
          // The same with Windows line ends.
          compare(perturbed.replaceAll("\n", "\r\n"));
        },
      ),
      { numRuns: RUNS },
    );
    // The short cut must take a fair share, perturbed or not, or this property proves little.
    expect(taken).toBeGreaterThan(RUNS * 0.3);
    expect(perturbedTaken).toBeGreaterThan(RUNS * 0.1);
  });

  it("takes every block text `yaml` writes for simple data", LONG, () => {
    // Simple data: a non-empty mapping or sequence at the top; below it mappings, sequences (empty ones too,
    // which `yaml` writes `{}` and `[]`), keys that are lower-case words, strings that are lower-case words or
    // phrases, integers, finite doubles, booleans and nulls. Written in block style with `yaml`'s stringify, with
    // no line folding (lineWidth 0), any indent (2 or 4), indentSeq on or off, any string and key type (plain,
    // double- or single-quoted), nulls written `null`, `~` or as nothing: every such text is taken, and read as
    // the YAML parse reads it; and also when some collections below the top are written in flow style.
    fc.assert(
      fc.property(simpleTop, options, fc.nat(), (data, opts, flow) => {
        const block = { ...opts, lineWidth: 0 };
        expect(compare(write(data, block, 0))).toBe(true);
        // An empty null (nullStr "") in a flow sequence is written `[ 0, ]`, which reads as `[0]`: not taken.
        const nullStr = opts.nullStr === "" ? "null" : opts.nullStr;
        expect(compare(write(data, { ...block, nullStr }, flow))).toBe(true);
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it("reads the repository's YAML files as the YAML parse does, and takes most policy files", () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== "node_modules" && entry.name !== "dist" && !entry.name.startsWith("."))
            walk(path);
        } else if (entry.name.endsWith(".yaml") || entry.name.endsWith(".yml")) files.push(path);
      }
    };
    for (const dir of ["policies", "examples", "test"]) walk(join(ROOT, dir));
    files.push(join(ROOT, "toolgate.config.yaml"));
    const taken: string[] = [];
    for (const file of files) {
      // As parseYaml reads a file: a byte order mark at the start is dropped.
      const source = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
      if (compare(source)) taken.push(relative(ROOT, file));
    }
    const policies = files.filter((file) => relative(ROOT, file).startsWith("policies/"));
    const policiesTaken = taken.filter((file) => file.startsWith("policies/"));
    expect(files.length).toBeGreaterThan(100);
    expect(policiesTaken.length).toBeGreaterThanOrEqual(policies.length * 0.8);
    expect(taken.length).toBeGreaterThanOrEqual(files.length * 0.8);
  });

  it("reads an ordinary tool file with the positions the YAML parse gives", () => {
    const source = [
      "# Tools of the file server.",
      "tools:",
      "  - name: read_file   # the one everybody uses",
      '    description: "Reads a file: all of it."',
      "    input_schema:",
      "      type: object",
      "      properties:",
      "        path: { type: string, maxLength: 4096 }",
      "        mode:",
      "          type: string",
      "          enum: [fast, exact]",
      '      required: ["path"]',
      "      # nothing else",
      "",
      "  - name: list_dir",
      "    input_schema:",
      "      type: object",
      "      additionalProperties: false",
      "    deprecated:",
      "",
    ].join("\n");
    expect(compare(source)).toBe(true);
    const parsed = parseYaml(new TextEncoder().encode(source), "tools.yaml");
    expect(parsed.ok && parsed.value.positions.get("/tools/0/name")).toEqual({
      value: { line: 3, column: 11, endLine: 3, endColumn: 20 },
      key: { line: 3, column: 5, endLine: 3, endColumn: 9 },
    });
    expect(parsed.ok && parsed.value.data).toEqual({
      tools: [
        {
          name: "read_file",
          description: "Reads a file: all of it.",
          input_schema: {
            type: "object",
            properties: {
              path: { type: "string", maxLength: 4096 },
              mode: { type: "string", enum: ["fast", "exact"] },
            },
            required: ["path"],
          },
        },
        {
          name: "list_dir",
          input_schema: { type: "object", additionalProperties: false },
          deprecated: null,
        },
      ],
    });
  });

  it.each([
    ["a comment before an empty item", "#true\n- false\n#\n- \n"],
    ["a comment the inner mapping keeps", "a:\n  b: 1\n  # about b\nc: 2\n"],
    ["a comment given to a value, then one that waits", "a:\n  - x\n    # about x\n  # about a\nb: 1\n"],
    ["comments after an empty value", "a:\n  b:\n# after b\n    # deeper\nc: 1\n"],
    ["a comment moved up to the sequence", "- a: 1\n# moved up\n-\n"],
    ["CR LF line ends", "a: 1  \r\n# c\r\nb:\r\n  - 'x'\r\n  -\r\n\r\n"],
    ["a comment given to a flow sequence", "a:\n  b: [x, y]   # flow\n    # about b\n\n"],
    ["an empty item with a comment, last", "a:\n  - # none\n\nb: 1\n"],
    ["a sequence at its key's column", "a:\n- 1\n  # about 1\n- - 2\n  - 3\nb:\n- {}\n"],
    ["no newline at the end", "a:\n  b: 'x'  # c"],
    ["a mapping on the line after its dash", "-\n  a: 1\n  b: [2, { c: d }]\n- # empty\n"],
  ])("takes %s, with the YAML parse's positions", (_label, source) => {
    expect(compare(source)).toBe(true);
  });

  it("keeps a __proto__ key as data", () => {
    const source = "__proto__: 1\nlist:\n  - { __proto__: 2 }\n";
    expect(compare(source)).toBe(true);
    const data = plainBlockYaml(source)?.data as Record<string, unknown>;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(["__proto__", "list"]);
  });

  it.each([
    ["a tab in the indentation", "a:\n\tb: 1\n"],
    ["a tab after a value", "a: 1\t\n"],
    ["an anchor", "a: &x 1\nb: 2\n"],
    ["an alias", "a: 1\nb: *x\n"],
    ["a tag", "a: !!str 1\n"],
    ["a directive", "%YAML 1.2\n---\na: 1\n"],
    ["a document start", "---\na: 1\n"],
    ["a document end", "a: 1\n...\n"],
    ["a literal block scalar", "a: |\n  text\n"],
    ["a folded block scalar", "a: >-\n  text\n"],
    ["a plain scalar on two lines", "a: one\n  two\n"],
    ["a quoted scalar on two lines", 'a: "one\n  two"\n'],
    ["a value on the line after its key", "a:\n  one\n"],
    ["an explicit key", "? a\n: 1\n"],
    ["a duplicate key", "a: 1\nb: 2\na: 3\n"],
    ["a duplicate key, quoted once", "a: 1\n'a': 2\n"],
    ["a duplicate key in a flow mapping", "a: { b: 1, b: 2 }\n"],
    ["a long key", `${"k".repeat(1100)}: 1\n`],
    ["an integer key", "1: one\n"],
    ["a boolean key", "true: yes\n"],
    ["a null key", "null: 1\n"],
    ["a control character", "a: \u0001\n"],
    ["a C1 control character", "a: \u0085\n"],
    ["a byte order mark", "\uFEFFa: 1\n"],
    ["a line separator", "a: b\u2028c\n"],
    ["a paragraph separator", "a: b\u2029c\n"],
    ["a lone surrogate", "a: \ud800\n"],
    ["a character beyond the basic plane", "a: 😀\n"],
    ["an alias in a flow sequence", "a: [*x]\n"],
    ["flow collections nested deeper than the limit", `a: ${"[".repeat(200)}${"]".repeat(200)}\n`],
    [
      "block collections nested deeper than the limit",
      Array.from({ length: 150 }, (_, depth) => `${" ".repeat(depth)}k:`).join("\n"),
    ],
    ["sequences on one line nested deeper than the limit", `${"- ".repeat(150)}x\n`],
    ["a lone CR", "a: 1\rb: 2\n"],
    ["an infinite number", "a: .inf\n"],
    ["not a number", "a: .nan\n"],
    ["an integer beyond the double range", `a: ${"9".repeat(400)}\n`],
    ["a key indented less than its siblings", "a:\n  b: 1\n c: 2\n"],
    ["a key indented more than its siblings", "a:\n  b: 1\n   c: 2\n"],
    ["a sequence item indented wrongly", "a:\n  - 1\n   - 2\n"],
    ["a sequence beside a key", "a: 1\n- b\n"],
    ["a nested mapping on the key's line", "a: b: c\n"],
    ["a sequence on the key's line", "a: - b\n"],
    ["a mapping at the top indented", "  a: 1\n"],
    ["a scalar at the top", "just text\n"],
    ["an empty file", ""],
    ["a file of comments", "# nothing\n"],
    ["a flow collection on two lines", "a: [1,\n  2]\n"],
    ["a comment without a space before it", 'a: "x"#c\n'],
    ["a space before the colon", "a : 1\n"],
    ["a reserved character", "a: @x\n"],
    ["a flow sequence with a trailing comma", "a: [1, 2, ]\n"],
  ])("leaves %s to the YAML parse", (_label, source) => {
    expect(plainBlockYaml(source)).toBeUndefined();
  });

  it("leaves a duplicate key to the YAML parse, which reports it", () => {
    const source = "name: a\nkind: tool\nname: b\n";
    expect(plainBlockYaml(source)).toBeUndefined();
    const parsed = parseYaml(new TextEncoder().encode(source), "f.yaml");
    expect(parsed.ok).toBe(false);
    expect(parsed.diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      [
        "duplicate-key",
        3,
        'duplicate key "name": it is already set at line 1, column 1; a key may appear once in a mapping, so remove or merge one',
      ],
    ]);
  });

  it("reads a text the YAML parse read before again as a copy, under the new file's name", () => {
    // A block scalar: not plain block YAML, so the YAML parse reads it (twice, for two versions of a config).
    const source = "tests:\n  - name: |\n      two\n      lines\n    __proto__: { x: 1 }\n";
    expect(plainBlockYaml(source)).toBeUndefined();
    const bytes = new TextEncoder().encode(source);
    const first = parseYaml(bytes, "base/t.yaml");
    const second = parseYaml(bytes, "head/t.yaml");
    if (!first.ok || !second.ok) throw new Error("the text parses");
    expect(second.value.file).toBe("head/t.yaml");
    expect(second.value.data).toEqual(first.value.data);
    expect(second.value.positions).toEqual(first.value.positions);
    const item = (data: unknown) => (data as { tests: Record<string, unknown>[] }).tests[0] as object;
    expect(Object.getOwnPropertyNames(item(second.value.data))).toEqual(["name", "__proto__"]);
    expect(Object.getPrototypeOf(item(second.value.data))).toBe(Object.prototype);
    // Each reader has data of its own: what one changes, the next does not see.
    (item(first.value.data) as Record<string, unknown>).name = "changed";
    (item(second.value.data) as Record<string, unknown>).name = "changed too";
    const third = parseYaml(bytes, "t.yaml");
    if (!third.ok) throw new Error("the text parses");
    expect((item(third.value.data) as Record<string, unknown>).name).toBe("two\nlines\n");
    // A text with a problem is parsed, and reported, every time.
    const bad = new TextEncoder().encode("a: |\n  x\na: 1\n");
    expect(parseYaml(bad, "one.yaml").diagnostics[0]?.file).toBe("one.yaml");
    expect(parseYaml(bad, "two.yaml").diagnostics[0]?.file).toBe("two.yaml");
  });
});
