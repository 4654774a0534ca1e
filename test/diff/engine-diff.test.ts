import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DiffSide, diffPolicies } from "../../src/diff/diff-policies.js";
import { applyMode } from "../../src/runtime/mode.js";
import { decisionController } from "../../src/testing/run-policy-tests.js";
import { diffRegions, type RegionSide } from "../../src/verify/diff-regions.js";
import { loadFromText } from "../verify/helpers.js";
import { expectEveryChangeFlips } from "./diff-helpers.js";

/** A tools file with one tool whose only argument is `field` with this schema (YAML flow text). */
function toolsWith(
  tool: string,
  field: string,
  schema: string,
  description = "Reads a file.",
  required = true,
): string {
  return `tools:
  - name: ${tool}
    description: ${description}
    input_schema:
      type: object
      properties:
        ${field}: ${schema}
      required: [${required ? field : ""}]
      additionalProperties: false
`;
}

/** A policy that allows `tool` except where a deny rule's condition (YAML flow text) holds. */
function denyPolicy(tool: string, field: string, operators: string, reason = "never"): string {
  return `version: 1
allow: [${tool}]
rules:
  - id: deny-some
    tools: [${tool}]
    decision: deny
    when:
      ${field}: ${operators}
    reason: ${reason}
`;
}

function side(label: string, tools: string, policy: string): DiffSide {
  return { label, ...loadFromText(tools, policy) };
}

type Outcome = "allow" | "ask" | "deny" | "invalid";
const RANK: Readonly<Record<Outcome, number>> = { allow: 0, ask: 1, deny: 2, invalid: 2 };

/** What a side's real controller does with a call (its mode applied), as `toolgate explain` shows it. */
function outcomeOf(s: RegionSide, tool: string, args: unknown, context: object = {}): Outcome {
  const controller = decisionController(s.bundle, s.validators);
  const r = controller.explain({ callId: "oracle", toolName: tool, arguments: args }, context as never);
  return "callId" in r ? "invalid" : applyMode(r.decision, controller.mode).decision.action;
}

/** Every region's witness, decided again by both controllers, gives the reported outcomes and kind. */
function expectRegionsConfirmed(base: RegionSide, head: RegionSide): void {
  for (const tool of diffRegions(base, head)) {
    for (const c of tool.changes) {
      const b = outcomeOf(base, c.tool, c.arguments, c.context);
      const a = outcomeOf(head, c.tool, c.arguments, c.context);
      expect([b, a]).toEqual([c.before, c.after]);
      const kind = RANK[a] < RANK[b] ? "loosened" : RANK[a] > RANK[b] ? "tightened" : "changed";
      expect(c.change).toBe(kind);
    }
  }
}

describe("toolgate diff on the decision engine", () => {
  it("a narrowed deny glob on a field with a schema pattern: the heuristics see nothing, the engine a loosening", () => {
    // Paths are `keys/<digits>.<letters>`: the heuristic witnesses of the glob (`a/x.key`, `.key`, …) are all
    // refused by the pattern on both sides, so the old diff reported no change.
    const tools = toolsWith(
      "read_file",
      "path",
      '{ type: string, pattern: "^keys/[0-9]+\\\\.[a-z]+$", maxLength: 64 }',
    );
    const base = side("base", tools, denyPolicy("read_file", "path", '{ glob: ["**/*.pem", "**/*.key"] }'));
    const head = side("head", tools, denyPolicy("read_file", "path", '{ glob: ["**/*.pem"] }'));

    const heuristic = diffPolicies(base, head, { engine: false });
    expect(heuristic.decisions).toEqual([]);
    expect(heuristic.summary).toEqual({ loosened: 0, tightened: 0, changed: 0 });

    const diff = diffPolicies(base, head);
    expect(diff.summary.loosened).toBeGreaterThan(0);
    const change = diff.decisions.find((d) => d.change === "loosened");
    expect(change).toMatchObject({
      tool: "read_file",
      source: "engine",
      before: { action: "deny", statementIds: ["deny-some"] },
      after: { action: "allow" },
    });
    expect((change?.arguments as { path: string } | undefined)?.path).toMatch(/^keys\/[0-9]+\.key$/);
    expect(diff.engine).toHaveLength(1);
    const tool = diff.engine[0];
    expect(tool?.status).toBe("complete");
    const region = tool?.changes.find((c) => c.change === "loosened");
    expect(region?.condition).toContain('path matches glob ["**/*.pem","**/*.key"]: true');
    expect(region?.condition).toContain('path matches glob "**/*.pem": false');
    expectEveryChangeFlips(diff, base, head);
    expectRegionsConfirmed(base, head);
  });

  it("a raised maxLength: calls the old schema refused and no deny rule covers are loosened (invalid → allow)", () => {
    const policy = denyPolicy("search", "query", '{ regex: "password" }');
    const base = side("base", toolsWith("search", "query", "{ type: string, maxLength: 8 }"), policy);
    const head = side("head", toolsWith("search", "query", "{ type: string, maxLength: 64 }"), policy);
    const diff = diffPolicies(base, head);
    const tool = diff.engine.find((t) => t.tool === "search");
    expect(tool?.status).toBe("complete");
    const region = tool?.changes.find((c) => c.change === "loosened");
    expect(region).toMatchObject({ before: "invalid", after: "allow" });
    const query = (region?.arguments as { query: string } | undefined)?.query ?? "";
    expect(query.length).toBeGreaterThan(8);
    expect(query).not.toContain("password");
    expect(region?.condition).toContain("query length within the old schema's 0..8: false");
    expect(diff.summary.loosened).toBeGreaterThan(0);
    expectEveryChangeFlips(diff, base, head);
    expectRegionsConfirmed(base, head);
  });

  it("a raised maxLength: a deny rule on long values that misses a line break is a loosening, exactly", () => {
    // `.` does not match a line terminator: eight letters and one of them is long and not denied.
    const policy = denyPolicy("search", "query", '{ regex: "^.{9,}$" }');
    const base = side("base", toolsWith("search", "query", "{ type: string, maxLength: 8 }"), policy);
    const head = side("head", toolsWith("search", "query", "{ type: string, maxLength: 64 }"), policy);
    const diff = diffPolicies(base, head);
    const region = diff.engine[0]?.changes.find((c) => c.change === "loosened");
    expect(region).toMatchObject({ before: "invalid", after: "allow" });
    expect((region?.arguments as { query: string } | undefined)?.query).toMatch(/[\n\r\u2028\u2029]/);
    expectRegionsConfirmed(base, head);
  });

  it("a raised maxLength past a deny pattern's window, whose automaton is too large to build, is still found", () => {
    // `drop.{0,46}table` searched anywhere needs an automaton of every set of recent `drop`s: past the engine's
    // bound. The allowed shape at the new schema's longest length is tried as a value, and confirmed.
    const policy = `version: 1
otherwise: { sql: deny }
rules:
  - id: drop-shape
    tools: [sql]
    decision: allow
    when: { query: { regex: "^drop [a-z ]*table$" } }
    reason: drop shape
  - id: no-drop-table
    tools: [sql]
    decision: deny
    when: { query: { regex: "drop.{0,46}table" } }
    reason: no drop table
`;
    const base = side(
      "base",
      toolsWith("sql", "query", "{ type: string, minLength: 1, maxLength: 50 }"),
      policy,
    );
    const head = side(
      "head",
      toolsWith("sql", "query", "{ type: string, minLength: 1, maxLength: 200 }"),
      policy,
    );
    const diff = diffPolicies(base, head);
    const tool = diff.engine.find((t) => t.tool === "sql");
    expect(tool?.status).toBe("complete");
    const region = tool?.changes.find((c) => c.change === "loosened");
    expect(region).toMatchObject({ before: "invalid", after: "allow" });
    const query = (region?.arguments as { query: string } | undefined)?.query ?? "";
    expect(query).toMatch(/^drop [a-z ]*table$/);
    expect(query).not.toMatch(/drop.{0,46}table/);
    expectRegionsConfirmed(base, head);
    // The other way, nothing loosens, and whether it does is unknown (the automaton is still too large).
    const back = diffPolicies(head, base).engine.find((t) => t.tool === "sql");
    expect(back?.changes.filter((c) => c.change === "loosened")).toEqual([]);
    expect(back?.status).toBe("unknown");
  });

  it("a field whose schema refers to a definition is read through it: a widened definition is a loosening", () => {
    const tools = (pattern: string, sibling = "") => `tools:
  - name: read_file
    description: Reads a file.
    input_schema:
      type: object
      $defs:
        p: { type: string, maxLength: 64, pattern: "${pattern}" }
      properties:
        path: { $ref: "#/$defs/p"${sibling} }
      required: [path]
      additionalProperties: false
`;
    const policy = denyPolicy("read_file", "path", '{ glob: "etc/**" }');
    const base = side("base", tools("^[a-z/]+$"), policy);
    const head = side("head", tools("^[a-z/.]+$"), policy);
    const wider = diffPolicies(base, head).engine.find((t) => t.tool === "read_file");
    expect(wider?.status).toBe("complete");
    const region = wider?.changes.find((c) => c.change === "loosened");
    expect(region).toMatchObject({ before: "invalid", after: "allow" });
    expect((region?.arguments as { path: string } | undefined)?.path).toContain(".");
    expectRegionsConfirmed(base, head);
    // The same definition on both sides: nothing changed, decided.
    expect(diffPolicies(base, side("same", tools("^[a-z/]+$"), policy)).engine).toEqual([]);
    // A reference beside keywords of its own is not read through: the engine says unknown, never "no change",
    // and the values at the schema's edges (`boundaryValues`) find the loosening, which decides it.
    const [a, b] = [
      side("a", tools("^[a-z/]+$", ", type: string, maxLength: 8"), policy),
      side("b", tools("^[a-z/.]+$", ", type: string, maxLength: 8"), policy),
    ];
    expect(diffRegions(a, b).find((t) => t.tool === "read_file")?.status).toBe("unknown");
    const beside = diffPolicies(a, b);
    expect(beside.engine.find((t) => t.tool === "read_file")?.status).toBe("complete");
    expect(beside.decisions.find((d) => d.change === "loosened")).toMatchObject({
      source: "generated",
      before: { action: "invalid" },
      after: { action: "allow" },
    });
  });

  it("undeclared properties allowed where they were refused are a loosening (invalid → the new decision)", () => {
    const tools = (additional: string) => `tools:
  - name: read_file
    description: Reads a file.
    input_schema:
      type: object
      properties:
        path: { type: string, maxLength: 64 }
        undeclared: { type: string, maxLength: 8 }
      required: [path]
      additionalProperties: ${additional}
`;
    const policy = denyPolicy("read_file", "path", '{ glob: "etc/**" }');
    const closed = side("closed", tools("false"), policy);
    const open = side("open", tools("true"), policy);
    const opened = diffPolicies(closed, open).engine.find((t) => t.tool === "read_file");
    expect(opened?.status).toBe("complete");
    const region = opened?.changes.find((c) => c.change === "loosened");
    expect(region).toMatchObject({ before: "invalid", after: "allow" });
    // A property neither side declares (`undeclared` is declared here).
    expect(Object.keys(region?.arguments as object).sort()).toEqual(["path", "undeclared_1"]);
    expectRegionsConfirmed(closed, open);
    // Closed again: tightened only, decided.
    const back = diffPolicies(open, closed).engine.find((t) => t.tool === "read_file");
    expect(back?.status).toBe("complete");
    // Tightened where the call was allowed; where a deny rule refused it, refused as invalid now: changed.
    expect(new Set(back?.changes.map((c) => c.change))).toEqual(new Set(["tightened", "changed"]));
    for (const c of back?.changes ?? [])
      expect([c.before, c.after]).toEqual(
        c.change === "tightened" ? ["allow", "invalid"] : ["deny", "invalid"],
      );
    expectRegionsConfirmed(open, closed);
    // An absent `additionalProperties` is `true`: nothing changed, decided.
    const absent = side("absent", tools("true").replace("      additionalProperties: true\n", ""), policy);
    expect(diffPolicies(open, absent).engine).toEqual([
      { tool: "read_file", status: "complete", changes: [] },
    ]);
  });

  it("a tool declared on the new side alone: every call it does not deny is a loosening (invalid before)", () => {
    const before = toolsWith("read_file", "path", "{ type: string, maxLength: 64 }");
    const after = `${before}  - name: delete_repo
    description: Deletes a repository.
    input_schema:
      type: object
      properties:
        repo: { type: string, pattern: "^[a-z0-9]+/[a-z0-9]+$" }
      required: [repo]
      additionalProperties: false
`;
    const policy = (rules?: string) => `version: 1
allow: [read_file]
${rules === undefined ? "" : `otherwise: { delete_repo: deny }\nrules:${rules === "" ? " []" : `\n${rules}`}`}
`;
    const sandbox = `  - id: sandbox
    tools: [delete_repo]
    decision: allow
    when: { repo: { regex: "^acme/", not: { regex: "[0-9]" } } }
    reason: sandbox repositories.
  - id: only-z
    tools: [delete_repo]
    decision: deny
    when: { repo: { not: { regex: "qz$" } } }
    reason: only these.
`;
    const base = side("base", before, policy());
    const head = side("head", after, policy(sandbox));
    const added = diffPolicies(base, head).engine.find((t) => t.tool === "delete_repo");
    expect(added?.status).toBe("complete");
    const region = added?.changes.find((c) => c.change === "loosened");
    expect(region).toMatchObject({ before: "invalid", after: "allow" });
    expect((region?.arguments as { repo: string } | undefined)?.repo).toMatch(/^acme\/[a-z]*qz$/);
    expectRegionsConfirmed(base, head);
    // Denied whole: nothing loosens, decided.
    const denied = diffPolicies(base, side("denied", after, policy(""))).engine;
    expect(denied).toEqual([{ tool: "delete_repo", status: "complete", changes: [] }]);
  });

  it("an optional field as pydantic writes it (anyOf with null) is read as a leaf: its raised maxLength loosens", () => {
    const optional = (max: number) =>
      toolsWith(
        "search",
        "query",
        `{ anyOf: [{ type: string, maxLength: ${max} }, { type: "null" }], default: null }`,
      );
    const policy = denyPolicy("search", "query", '{ regex: "password" }');
    const base = side("base", optional(8), policy);
    const head = side("head", optional(64), policy);
    const tool = diffPolicies(base, head).engine.find((t) => t.tool === "search");
    expect(tool?.status).toBe("complete");
    const region = tool?.changes.find((c) => c.change === "loosened");
    expect(region).toMatchObject({ before: "invalid", after: "allow" });
    expect(((region?.arguments as { query: string } | undefined)?.query ?? "").length).toBeGreaterThan(8);
    expectRegionsConfirmed(base, head);
    // Made optional: null is newly valid, and allowed where no rule reads it (the regex is a maybe on null: denied).
    const open = "version: 1\nallow: [search]\n";
    const plain = side("plain", toolsWith("search", "query", "{ type: string, maxLength: 8 }"), open);
    const nullable = diffPolicies(plain, side("optional", optional(8), open)).engine.find(
      (t) => t.tool === "search",
    );
    expect(nullable?.status).toBe("complete");
    expect(nullable?.changes.find((c) => c.change === "loosened")?.arguments).toEqual({ query: null });
    // Guarded by the deny rule, the newly valid null is denied: changed (invalid → deny), nothing loosened.
    const guarded = side("guarded", toolsWith("search", "query", "{ type: string, maxLength: 8 }"), policy);
    const denied = diffPolicies(guarded, base).engine;
    expect(denied).toEqual([
      {
        tool: "search",
        status: "complete",
        changes: [expect.objectContaining({ arguments: { query: null }, before: "invalid", after: "deny" })],
      },
    ]);
    expect(denied[0]?.changes[0]?.change).toBe("changed");
  });

  it("a raised maxLength whose new values a deny rule covers entirely is not a loosening (complete), but changed", () => {
    const policy = denyPolicy("search", "query", '{ regex: { pattern: "^.{9,}$", flags: "s" } }');
    const base = side("base", toolsWith("search", "query", "{ type: string, maxLength: 8 }"), policy);
    const head = side("head", toolsWith("search", "query", "{ type: string, maxLength: 64 }"), policy);
    const diff = diffPolicies(base, head);
    expect(diff.summary.loosened).toBe(0);
    const [tool] = diff.engine;
    expect(tool?.status).toBe("complete");
    // The new values were refused as invalid and are denied now: the same rank, a change all the same.
    expect(tool?.changes.length).toBeGreaterThan(0);
    for (const c of tool?.changes ?? []) {
      expect([c.before, c.after, c.change]).toEqual(["invalid", "deny", "changed"]);
      expect((c.arguments as { query: string }).query.length).toBeGreaterThan(8);
    }
    expectRegionsConfirmed(base, head);
  });

  it("a tightening: a widened deny glob is tightened, complete, and nothing loosened", () => {
    const tools = toolsWith("read_file", "path", "{ type: string, maxLength: 64 }");
    const base = side("base", tools, denyPolicy("read_file", "path", '{ glob: ["**/*.pem"] }'));
    const head = side("head", tools, denyPolicy("read_file", "path", '{ glob: ["**/*.pem", "secrets/**"] }'));
    const diff = diffPolicies(base, head);
    expect(diff.summary.loosened).toBe(0);
    expect(diff.summary.tightened).toBeGreaterThan(0);
    const tool = diff.engine[0];
    expect(tool?.status).toBe("complete");
    expect(tool?.changes.length).toBeGreaterThan(0);
    expect(
      tool?.changes.every((c) => c.change === "tightened" && c.before === "allow" && c.after === "deny"),
    ).toBe(true);
    expectEveryChangeFlips(diff, base, head);
    expectRegionsConfirmed(base, head);
  });

  it("an unrelated edit (a tool's description, a rule's reason): no change, complete", () => {
    const base = side(
      "base",
      toolsWith("read_file", "path", "{ type: string }", "Reads a file."),
      denyPolicy("read_file", "path", '{ glob: ["**/*.pem"] }', "keys stay private"),
    );
    const head = side(
      "head",
      toolsWith("read_file", "path", "{ type: string, description: the file }", "Reads one text file."),
      denyPolicy("read_file", "path", '{ glob: ["**/*.pem"] }', "private keys are never read"),
    );
    const diff = diffPolicies(base, head);
    expect(diff.decisions).toEqual([]);
    expect(diff.engine).toEqual([{ tool: "read_file", status: "complete", changes: [] }]);
  });

  it("a deny command rule turned into a regex: the engine finds the argument a program may run (git status rm)", () => {
    const tools = toolsWith("run_shell", "command", "{ type: string, maxLength: 200 }");
    const policy = (deny: string) => `version: 1
rules:
  - id: safe
    tools: [run_shell]
    decision: allow
    when:
      command: { command: ["ls", "git status"] }
    reason: read-only commands
  - id: no-rm
    tools: [run_shell]
    decision: deny
    when:
      command: ${deny}
    reason: no deletion
`;
    const base = side("base", tools, policy('{ command: ["rm"] }'));
    const head = side("head", tools, policy('{ regex: "^rm " }'));
    const [shell] = diffRegions(base, head);
    expect(shell?.status, JSON.stringify(shell)).toBe("complete");
    const loosened = shell?.changes.filter((c) => c.change === "loosened") ?? [];
    expect(loosened.length).toBeGreaterThan(0);
    expectRegionsConfirmed(base, head);
  });

  it("property: every region is confirmed, and a complete answer without a loosening is right on every call", () => {
    // One tool, one string field over {a, b, /, .} of at most 3 characters (fixed by the schema's pattern; its
    // length bound, its pattern and whether the field is required may change between the sides), a few rules on
    // each side: brute force decides every call.
    const CHARS = ["a", "b", "/", "."];
    const strings: string[] = [""];
    for (let n = 1; n <= 3; n++) {
      for (const s of strings.filter((x) => x.length === n - 1)) for (const c of CHARS) strings.push(s + c);
    }
    const operators = fc.constantFrom(
      '{ glob: ["**/a*"] }',
      '{ glob: ["a/**"] }',
      '{ glob: ["*.b"] }',
      '{ glob: ["**/.a*", "b"] }',
      '{ prefix: "a" }',
      '{ equals: "ab" }',
      '{ regex: "^b" }',
      '{ regex: "a$" }',
      '{ path_prefix: "a/" }',
      '{ in: ["a", "b/a"] }',
      '{ not: { prefix: "." } }',
    );
    const rule = fc.record({ decision: fc.constantFrom("allow", "ask", "deny"), when: operators });
    const policySide = fc.record({
      rules: fc.array(rule, { minLength: 0, maxLength: 3 }),
      otherwise: fc.constantFrom(undefined, "ask", "allow"),
      max: fc.constantFrom(2, 3),
      pattern: fc.constantFrom("^[ab/.]*$", "^[ab/.]*$", "^[ab/]*$"),
      required: fc.boolean(),
      mode: fc.constantFrom("enforce", "enforce", "ci"),
    });
    type Side = typeof policySide extends fc.Arbitrary<infer S> ? S : never;
    const load = (s: Side, label: string): DiffSide => {
      const schema = `{ type: string, pattern: "${s.pattern}", maxLength: ${s.max} }`;
      const tools = toolsWith("t", "p", schema, "A tool.", s.required);
      const rules = s.rules
        .map(
          (r, i) =>
            `  - id: r${i}\n    tools: [t]\n    decision: ${r.decision}\n    when:\n      p: ${r.when}\n    reason: r${i}\n`,
        )
        .join("");
      const policy = `version: 1\n${s.otherwise === undefined ? "" : `otherwise: { t: ${s.otherwise} }\n`}${rules === "" ? "" : `rules:\n${rules}`}`;
      return { label, ...loadFromText(tools, policy, s.mode === "enforce" ? "" : `mode: ${s.mode}\n`) };
    };
    let decided = 0;
    let unknown = 0;
    fc.assert(
      fc.property(policySide, policySide, (x, y) => {
        const base = load(x, "base");
        const head = load(y, "head");
        const result = diffRegions(base, head);
        expectRegionsConfirmed(base, head);
        const tool = result.find((t) => t.tool === "t");
        if (tool?.status === "unknown") unknown++;
        if (tool === undefined || tool.status !== "complete") return;
        decided++;
        const calls = [{}, ...strings.map((p) => ({ p }))];
        const loosened = calls.filter((call) => {
          const b = outcomeOf(base, "t", call);
          const a = outcomeOf(head, "t", call);
          return RANK[a] < RANK[b];
        });
        const reported = tool.changes.some((c) => c.change === "loosened");
        // Complete: a loosening exists exactly when one was reported.
        expect({ reported, example: loosened[0] }).toEqual({
          reported: loosened.length > 0,
          example: loosened[0],
        });
      }),
      { numRuns: Number(process.env.TOOLGATE_DIFF_ENGINE_RUNS ?? 60) },
    );
    expect(decided).toBeGreaterThan(unknown);
  }, 120_000);

  it("property (numbers): a complete answer is right on every call when bounds and multiples move in the schema and the rules", () => {
    const operators = fc.constantFrom(
      "{ min: 2 }",
      "{ max: 4 }",
      "{ equals: 3 }",
      "{ in: [1, 5] }",
      "{ not: { min: 3 } }",
    );
    const rule = fc.record({ decision: fc.constantFrom("allow", "ask", "deny"), when: operators });
    const numberSide = fc.record({
      rules: fc.array(rule, { minLength: 0, maxLength: 3 }),
      otherwise: fc.constantFrom(undefined, "ask", "allow"),
      type: fc.constantFrom("integer", "number"),
      minimum: fc.constantFrom(0, 1),
      maximum: fc.constantFrom(3, 5),
      multipleOf: fc.constantFrom(undefined, undefined, 0.5, 1, 2, 3, 4),
      required: fc.boolean(),
    });
    type Side = typeof numberSide extends fc.Arbitrary<infer S> ? S : never;
    const load = (s: Side, label: string): DiffSide => {
      const multiple = s.multipleOf === undefined ? "" : `, multipleOf: ${s.multipleOf}`;
      const schema = `{ type: ${s.type}, minimum: ${s.minimum}, maximum: ${s.maximum}${multiple} }`;
      const rules = s.rules
        .map(
          (r, i) =>
            `  - id: r${i}\n    tools: [t]\n    decision: ${r.decision}\n    when:\n      n: ${r.when}\n    reason: r${i}\n`,
        )
        .join("");
      const policy = `version: 1\n${s.otherwise === undefined ? "" : `otherwise: { t: ${s.otherwise} }\n`}${rules === "" ? "" : `rules:\n${rules}`}`;
      return { label, ...loadFromText(toolsWith("t", "n", schema, "A tool.", s.required), policy) };
    };
    // With the smallest doubles, which ajv counts multiples of any step (5e-324 / 3 is 0): fractions a number field
    // with a `multipleOf` allows where an integer field allows none.
    const calls = [
      {},
      ...[-1, 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 7, 5e-324, -5e-324].map((n) => ({ n })),
    ];
    let decided = 0;
    fc.assert(
      fc.property(numberSide, numberSide, (x, y) => {
        const base = load(x, "base");
        const head = load(y, "head");
        expectRegionsConfirmed(base, head);
        const tool = diffRegions(base, head).find((t) => t.tool === "t");
        if (tool === undefined || tool.status !== "complete") return;
        decided++;
        const loosened = calls.filter(
          (call) => RANK[outcomeOf(head, "t", call)] < RANK[outcomeOf(base, "t", call)],
        );
        expect({ reported: tool.changes.some((c) => c.change === "loosened"), example: loosened[0] }).toEqual(
          {
            reported: loosened.length > 0,
            example: loosened[0],
          },
        );
      }),
      { numRuns: Number(process.env.TOOLGATE_DIFF_ENGINE_RUNS ?? 60) },
    );
    expect(decided).toBeGreaterThan(0);
  }, 120_000);

  it("a changed multipleOf: the values of the new multiple alone are loosened, the engine alone finds them", () => {
    const policy = denyPolicy("t", "n", "{ max: -1 }");
    const schema = (m: number) => `{ type: integer, minimum: 0, maximum: 100, multipleOf: ${m} }`;
    const base = side("base", toolsWith("t", "n", schema(10), "A tool."), policy);
    const head = side("head", toolsWith("t", "n", schema(4), "A tool."), policy);
    const [tool] = diffRegions(base, head);
    expect(tool?.status).toBe("complete");
    const loosened = tool?.changes.filter((c) => c.change === "loosened") ?? [];
    expect(loosened.length).toBeGreaterThan(0);
    for (const change of loosened) {
      const n = (change.arguments as { n: number }).n;
      expect(n % 4 === 0 && n % 10 !== 0, `${n}`).toBe(true);
    }
    expect(tool?.changes.some((c) => c.change === "tightened")).toBe(true);
    expectRegionsConfirmed(base, head);
    // Far apart multiples, or one added, are not modelled: unknown, never "no change".
    const far = side("far", toolsWith("t", "n", "{ type: number, multipleOf: 0.0123 }", "A tool."), policy);
    const none = side("none", toolsWith("t", "n", "{ type: number }", "A tool."), policy);
    const near = side("near", toolsWith("t", "n", "{ type: number, multipleOf: 1 }", "A tool."), policy);
    expect(diffRegions(near, far)[0]?.status).not.toBe("complete");
    expect(diffRegions(near, none)[0]).toMatchObject({ status: "unknown" });
  });
});
