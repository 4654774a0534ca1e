/**
 * Readings of the verify engine the broader tests did not pin (found by the mutation runs of a third and a fourth
 * random samples of its lines, docs/verify-mutation.md): a part found written twice around the separator the `where` reads, a region
 * whose calls go from denied to invalid (`changed`, not loosened or tightened), the keywords of a schema read for
 * `diff`'s reasons (not the contents of data keywords), and a `|` inside a class of a pattern that names a line's
 * start.
 */
import { describe, expect, it } from "vitest";
import { compileCondition } from "../../src/runtime/condition.js";
import { diffRegions } from "../../src/verify/diff-regions.js";
import { firstWordStarts, lineStartsRegex } from "../../src/verify/facts.js";
import { unreadKeywords } from "../../src/verify/schema-facts.js";
import { lineStartOf, Verifier } from "../../src/verify/verify-properties.js";
import {
  expectFailsWith,
  fallbackValues,
  loadFromText,
  readFileTools,
  shellTools,
  stringField,
} from "./helpers.js";

const READ_ONLY = `version: 1
rules:
  - id: safe
    tools: [run_shell]
    decision: allow
    when: { command: { command: ["git status", "ls", "git log"] } }
    reason: read-only
  - id: quotes
    tools: [run_shell]
    decision: ask
    when: { command: { regex: "['\\"\\\\\\\\]" } }
    reason: quotes hide words
`;

describe("a part found, written twice around the separator the where reads", () => {
  it.each([
    ["\\| *l", "ls | ls"],
    ["&& *l", "ls && ls"],
    ["; *l", "ls; ls"],
    ["\\|\\| *l", "ls || ls"],
    ["\\n *l", "ls\nls"],
    // Without blanks around it: the spaced separators give no line the pattern selects.
    ["s\\|l", "ls|ls"],
    ["s&&l", "ls&&ls"],
    ["s;l", "ls;ls"],
    ["s\\|\\|l", "ls||ls"],
  ])("%s: the witness is %j", (regex, command) => {
    // The search finds the part `ls` (a part after the separator starts with `l`); alone it has no separator, so
    // the where does not select it, and the part joined with itself by the first separator that gives a line the
    // where selects is the witness: shorter than a line of two different parts.
    const property = { id: "p", tools: ["run_shell"], where: { command: { regex } } } as const;
    expectFailsWith(
      shellTools(),
      READ_ONLY,
      { ...property, kind: "never", action: "allow" },
      { command },
      "allow",
    );
    const where = compileCondition({ command: { regex } });
    if (!where.ok) throw new Error("the where does not compile");
    expect(where.condition({ command })).toBe(1);
  });
});

describe("a `|` inside a class of a pattern that names a line's start", () => {
  it("is no alternative at the pattern's top level", () => {
    // `^ls [a|b]` is `ls` and a word starting with `a`, `|` or `b`: one line start, not `^ls [a` or `b]`.
    expect(lineStartsRegex("^ls [a|b]")).toEqual([{ words: ["ls"] }]);
    expect(lineStartsRegex("^git [(|]x")).toEqual([{ words: ["git"] }]);
    expect(firstWordStarts("regex", "^ls[a|b]")).toEqual(["ls"]);
    // Outside a class it is one: the pattern names no single start.
    expect(lineStartsRegex("^ls |b")).toBeUndefined();
    expect(firstWordStarts("regex", "^ls|b")).toBeUndefined();
  });
});

describe("the keywords of a schema that diff does not read", () => {
  it("are the schema's own and its subschemas', not the contents of data keywords", () => {
    const schema = {
      type: "object",
      properties: { mode: { type: "string", default: { note: 1 }, contentMediaType: "text/plain" } },
      default: { path: "a", unknownThing: 2 },
      examples: [{ x: 1 }],
      const: { c: 1 },
      minProperties: 1,
      items: { type: "string", contentEncoding: "base64" },
      additionalProperties: { type: "string", format: "email", propertyNames: { maxLength: 3 } },
    };
    // `const` is read (a leaf value keyword), `default` and `examples` are annotations: their values are data.
    expect([...unreadKeywords(schema)].sort()).toEqual([
      "contentEncoding",
      "contentMediaType",
      "minProperties",
      "propertyNames",
    ]);
  });
});

describe("a region whose calls go from denied to invalid", () => {
  it("is changed: neither loosened nor tightened (invalid ranks as deny)", () => {
    const tools = (maxLength: number): string => `tools:
  - name: search
    description: Searches.
    input_schema:
      type: object
      properties:
        query: { type: string, maxLength: ${maxLength} }
      required: [query]
      additionalProperties: false
`;
    const policy = `version: 1
allow: [search]
rules:
  - id: no-passwords
    tools: [search]
    decision: deny
    when: { query: { regex: password } }
    reason: no passwords
`;
    const base = { label: "base", ...loadFromText(tools(64), policy) };
    const head = { label: "head", ...loadFromText(tools(8), policy) };
    const [tool] = diffRegions(base, head);
    const changed = tool?.changes.filter((c) => c.before === "deny" && c.after === "invalid") ?? [];
    expect(changed.length, JSON.stringify(tool)).toBeGreaterThan(0);
    for (const c of changed) {
      expect(c.change).toBe("changed");
      const query = (c.arguments as { query: string }).query;
      expect(query).toContain("password");
      expect(query.length).toBeGreaterThan(8);
    }
    // The calls that were allowed and are now refused are tightened.
    const refused = tool?.changes.find((c) => c.before === "allow" && c.after === "invalid");
    expect(refused?.change).toBe("tightened");
  });
});

describe("a folder a glob names from the start (`.ssh/**`)", () => {
  it("is entered and left under a path_prefix's folder: the only witness", () => {
    // Every `.ssh` folder under `src/` is denied, and `.ssh/**` names the folder: `src/app/.ssh/..` is `src/app`
    // to the globs (denied by neither), while the property's regex sees `.ssh` as written. The folder comes from
    // `.ssh/**` alone (`src/**/.ssh/**` names no single folder).
    const policy = `version: 1
allow: [read_file]
rules:
  - id: secrets
    tools: [read_file]
    decision: deny
    when: { path: { glob: [".ssh/**", "src/**/.ssh/**"] } }
    reason: no.
`;
    expectFailsWith(
      readFileTools(),
      policy,
      {
        id: "ssh-under-app-denied",
        tools: ["read_file"],
        where: { path: { path_prefix: "src/app/", regex: "(^|/)\\.ssh(/|$)" } },
        kind: "always",
        action: "deny",
      },
      { path: "src/app/.ssh/.." },
      "allow",
    );
  });
});

describe("the operators inside a string array's any, read as a field of their own", () => {
  const TOOLS = `tools:
  - name: t
    description: A tool.
    input_schema:
      type: object
      properties:
        xs: { type: array, items: { type: string, pattern: "^[a-z]*$", maxLength: 4 }, maxItems: 3 }
      required: [xs]
      additionalProperties: false
`;
  /** `count` deny rules, each of one word among the array's elements; the properties' operators add to them. */
  const verify = (count: number) => {
    const words = Array.from({ length: count }, (_, i) => `w${"abcdefghij"[i]}`);
    const rules = words
      .map(
        (w) =>
          `  - id: no-${w}\n    tools: [t]\n    decision: deny\n    when: { xs: { any: { equals: ${w} } } }\n    reason: no.\n`,
      )
      .join("");
    const { bundle, validators } = loadFromText(TOOLS, `version: 1\nallow: [t]\nrules:\n${rules}`);
    return new Verifier(bundle, validators).verify([
      {
        id: "first",
        tools: ["t"],
        where: { xs: { any: { equals: words[0] } } },
        kind: "never",
        action: "allow",
      },
      { id: "w", tools: ["t"], where: { xs: { any: { prefix: "w" } } }, kind: "never", action: "allow" },
    ]);
  };

  it("are exact up to eight operators: seven rules' and the property's", () => {
    expect(verify(7)).toEqual([
      { id: "first", status: "holds" },
      {
        id: "w",
        status: "fails",
        witness: { tool: "t", arguments: { xs: ["w"] }, context: {}, decision: "allow" },
      },
    ]);
  });

  it("past eight, the contents of the arrays are not enumerated: unknown, never a wrong answer", () => {
    for (const result of verify(9)) {
      expect(result.status).toBe("unknown");
      expect(result.reason).toContain("the contents of arrays are not enumerated");
    }
  });
});

describe("how a regex says a line's first word starts", () => {
  it("is a start of parts only when every alternative is a word's start, never a redirection or an assignment", () => {
    expect(lineStartOf({ regex: "^(rm|sh)" })).toEqual([
      { words: [], last: "rm" },
      { words: [], last: "sh" },
    ]);
    // `2` starts a redirection (`2>x`) and `=` no command: the pattern names no start of a simple command.
    for (const regex of ["^(rm|2)", "^(ba|2)", "^(rm|=)", "^(sh|2>)"])
      expect(lineStartOf({ regex }), regex).toBeUndefined();
  });
});

describe("a schema that refers to the same definition on both sides", () => {
  it("is read through it, so a tightening of the rules alone is decided (complete)", () => {
    // Only `$ref` keys name references: the schema's other strings (`object`, a pattern) are not references
    // to compare, and the definitions agree, so the field is read through them.
    const tools = `tools:
  - name: read_file
    description: Reads a file.
    input_schema:
      type: object
      $defs:
        p: { type: string, maxLength: 64, pattern: "^[a-z/]+$" }
      properties:
        path: { $ref: "#/$defs/p" }
      required: [path]
      additionalProperties: false
`;
    const policy = (globs: string) => `version: 1
allow: [read_file]
rules:
  - id: deny-some
    tools: [read_file]
    decision: deny
    when: { path: { glob: ${globs} } }
    reason: never
`;
    const base = { label: "base", ...loadFromText(tools, policy('"etc/**"')) };
    const head = { label: "head", ...loadFromText(tools, policy('["etc/**", "var/**"]')) };
    const [tool] = diffRegions(base, head);
    expect(tool?.status, JSON.stringify(tool)).toBe("complete");
    expect(tool?.changes.length).toBeGreaterThan(0);
    for (const c of tool?.changes ?? []) {
      expect([c.change, c.before, c.after]).toEqual(["tightened", "allow", "deny"]);
      expect((c.arguments as { path: string }).path).toMatch(/^var(\/|$)/);
    }
  });
});

describe("a glob's alternatives in braces", () => {
  it("are each read: a deny of `{a,bc,d}/**` holds for paths under either", () => {
    const policy = `version: 1
allow: [read_file]
rules:
  - id: no-a-or-b
    tools: [read_file]
    decision: deny
    when: { path: { glob: "{a,bc,d}/**" } }
    reason: no.
`;
    const { bundle, validators } = loadFromText(readFileTools(), policy);
    // Plain paths under each (`a/..` climbs out: the deny does not hold there, and neither does `a/**`).
    const under = (folder: string) => ({ path: { regex: `^${folder}/[a-z]+$` } });
    const results = new Verifier(bundle, validators).verify(
      ["a", "bc", "d"].map((folder) => ({
        id: folder,
        tools: ["read_file"],
        where: under(folder),
        kind: "never" as const,
        action: "allow" as const,
      })),
    );
    expect(results.map((r) => r.status)).toEqual(["holds", "holds", "holds"]);
    // Outside them, allowed: the glob is no wider than its alternatives.
    const [outside] = new Verifier(bundle, validators).verify([
      { id: "b", tools: ["read_file"], where: under("b"), kind: "never", action: "allow" },
    ]);
    expect(outside?.status).toBe("fails");
  });

  it("in a glob's last segment, are each certain: an allow of `src/*.{ts,js,md}` holds for every such file", () => {
    const policy = `version: 1
rules:
  - id: sources
    tools: [read_file]
    decision: allow
    when: { path: { glob: "src/*.{ts,js,md}" } }
    reason: sources.
`;
    const { bundle, validators } = loadFromText(readFileTools(), policy);
    // Five letters or more: no device name of Windows (`aux.ts` is no plain file there, so never certain).
    const file = (ext: string) => ({ path: { regex: `^src/[a-z]{5,}\\.${ext}$` } });
    const results = new Verifier(bundle, validators).verify([
      ...["ts", "js", "md"].map((ext) => ({
        id: ext,
        tools: ["read_file"],
        where: file(ext),
        kind: "always" as const,
        action: "allow" as const,
      })),
      { id: "css", tools: ["read_file"], where: file("css"), kind: "never", action: "allow" },
    ]);
    expect(results.map((r) => [r.id, r.status])).toEqual([
      ["ts", "holds"],
      ["js", "holds"],
      ["md", "holds"],
      ["css", "holds"],
    ]);
  });
});

describe("the strings tried where the string theory is too large, under a schema pattern", () => {
  it("are strings of the pattern too: valid values, not the operator's strings alone", () => {
    const values = fallbackValues(
      stringField([["regex", "^(?:a{5}|x{6}|b{9})$"]], undefined, {
        type: "string",
        minLength: 5,
        maxLength: 10,
        pattern: "^[ab]+$",
      }),
    );
    expect(values).toContain("aaaaa");
    expect(values).toContain("bbbbbbbbb");
    // `xxxxxx` is the operator's, but no valid value: the schema's pattern refuses it.
    expect(values).not.toContain("xxxxxx");
    for (const v of values) expect(v, String(v)).toMatch(/^[ab]+$/);
  });
});

describe("the tools diff's engine searches", () => {
  const tools = (additional: string) => `tools:
  - name: read_file
    description: Reads a file.
    input_schema:
      type: object
      properties:
        path: { type: string, maxLength: 64 }
      required: [path]
      additionalProperties: ${additional}
  - name: search
    description: Searches.
    input_schema:
      type: object
      properties:
        query: { type: string, maxLength: 64 }
      required: [query]
      additionalProperties: false
`;
  const policy = (glob: string) => `version: 1
allow: [read_file, search]
rules:
  - id: no-secrets
    tools: [read_file]
    decision: deny
    when: { path: { glob: "${glob}" } }
    reason: no.
  - id: no-passwords
    tools: [search]
    decision: deny
    when: { query: { regex: password } }
    reason: no.
`;

  it("are only those the change touches: a read_file rule changed leaves search out", () => {
    const base = { label: "base", ...loadFromText(tools("false"), policy("**/.env")) };
    const head = { label: "head", ...loadFromText(tools("false"), policy("**/.env*")) };
    const regions = diffRegions(base, head);
    expect(regions.map((t) => [t.tool, t.status])).toEqual([["read_file", "complete"]]);
  });

  it("are unknown where additionalProperties turns from true to a schema (not modelled), never unchanged", () => {
    const base = { label: "base", ...loadFromText(tools("true"), policy("**/.env")) };
    const head = { label: "head", ...loadFromText(tools("{ type: string }"), policy("**/.env")) };
    const [tool] = diffRegions(base, head);
    expect(tool?.tool).toBe("read_file");
    expect(tool?.status).toBe("unknown");
    expect(tool?.reason).toContain("`additionalProperties` changed");
  });
});
