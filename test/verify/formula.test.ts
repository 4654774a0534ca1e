/**
 * Conditions as three-valued formulas (`formula.ts`): a mask evaluation is the set of Kleene truths of every
 * assignment the masks allow (exactly so when each atom occurs once, a superset otherwise); `truthOf` is Kleene
 * logic on concrete truths; a condition's formula, its atoms run by the runtime on a value, gives the runtime's
 * own answer for the whole condition; equal operators on a field share one atom.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ConditionSpec, compileCondition, readField } from "../../src/runtime/condition.js";
import { InternalError } from "../../src/runtime/errors.js";
import type { Truth } from "../../src/runtime/truth.js";
import {
  ANY,
  AtomTable,
  atomsOf,
  evaluate,
  F,
  type Formula,
  fieldRef,
  maskOf,
  T,
  TRUE_FORMULA,
  truthOf,
  U,
} from "../../src/verify/formula.js";

const RUNS = Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200);

/** Kleene truth of a formula when atom `i` has truth `truths[i]` (written out here, apart from `formula.ts`). */
function kleene(formula: Formula, truths: readonly Truth[]): Truth {
  switch (formula.kind) {
    case "const":
      return formula.truth;
    case "atom":
      return truths[formula.atom] as Truth;
    case "not": {
      const t = kleene(formula.of, truths);
      return t === 2 ? 2 : t === 1 ? 0 : 1;
    }
    case "and": {
      const ts = formula.of.map((f) => kleene(f, truths));
      if (ts.includes(0)) return 0;
      return ts.includes(2) ? 2 : 1;
    }
  }
}

/** The truths each mask allows. */
function truthsOf(mask: number): Truth[] {
  return ([0, 1, 2] as const).filter((t) => (mask & (1 << t)) !== 0);
}

/** The mask of every Kleene truth the formula takes over the assignments the masks allow. */
function reference(formula: Formula, masks: readonly number[]): number {
  let out = 0;
  const truths: Truth[] = [];
  const walk = (i: number): void => {
    if (i === masks.length) {
      out |= 1 << kleene(formula, truths);
      return;
    }
    for (const t of truthsOf(masks[i] as number)) {
      truths[i] = t;
      walk(i + 1);
    }
  };
  walk(0);
  return out;
}

const ATOMS = 4;
const truth = fc.constantFrom<Truth>(0, 1, 2);
const { formula } = fc.letrec<{ formula: Formula }>((tie) => ({
  formula: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    truth.map((t): Formula => ({ kind: "const", truth: t })),
    fc.integer({ min: 0, max: ATOMS - 1 }).map((atom): Formula => ({ kind: "atom", atom })),
    tie("formula").map((of): Formula => ({ kind: "not", of })),
    fc.array(tie("formula"), { maxLength: 3 }).map((of): Formula => ({ kind: "and", of })),
  ),
}));

/** The same shape with every atom a fresh one (each occurs once), numbered in order. */
function linear(f: Formula): { formula: Formula; atoms: number } {
  let next = 0;
  const go = (g: Formula): Formula => {
    switch (g.kind) {
      case "const":
        return g;
      case "atom":
        return { kind: "atom", atom: next++ };
      case "not":
        return { kind: "not", of: go(g.of) };
      case "and":
        return { kind: "and", of: g.of.map(go) };
    }
  };
  const out = go(f);
  return { formula: out, atoms: next };
}

const atom = (id: number): Formula => ({ kind: "atom", atom: id });
const not = (of: Formula): Formula => ({ kind: "not", of });
const and = (...of: Formula[]): Formula => ({ kind: "and", of });

describe("masks", () => {
  it("give each truth its bit: false 1, true 2, maybe 4", () => {
    expect([F, T, U, ANY]).toEqual([1, 2, 4, 7]);
    expect([maskOf(0), maskOf(1), maskOf(2)]).toEqual([F, T, U]);
  });
});

describe("fieldRef", () => {
  it("splits the dotted path and keys it by scope", () => {
    expect(fieldRef("arguments", "a.b")).toEqual({
      scope: "arguments",
      path: ["a", "b"],
      key: "arguments:a.b",
    });
    expect(fieldRef("context", "user")).toEqual({ scope: "context", path: ["user"], key: "context:user" });
  });
});

describe("evaluate", () => {
  it("is the set of Kleene truths of every allowed assignment when each atom occurs once", () => {
    fc.assert(
      fc.property(
        formula,
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 12, maxLength: 12 }),
        (f, m) => {
          const { formula: g, atoms } = linear(f);
          const masks = m.slice(0, atoms);
          expect(evaluate(g, Uint8Array.from(masks))).toBe(reference(g, masks));
        },
      ),
      { numRuns: RUNS * 4 },
    );
  });

  it("covers every truth an assignment gives when atoms repeat", () => {
    fc.assert(
      fc.property(
        formula,
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: ATOMS, maxLength: ATOMS }),
        (f, m) => {
          const got = evaluate(f, Uint8Array.from(m));
          const want = reference(f, m);
          expect(got & want).toBe(want);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  it("answers the Kleene conjunction of two atoms for every pair of masks", () => {
    const f = and(atom(0), atom(1));
    for (let a = 1; a <= 7; a++)
      for (let b = 1; b <= 7; b++)
        expect(evaluate(f, Uint8Array.from([a, b])), `${a} ${b}`).toBe(reference(f, [a, b]));
  });

  it("answers known masks of conjunctions, negations and constants", () => {
    const masks = Uint8Array.from([F | T, U, T, F]);
    expect(evaluate({ kind: "const", truth: 0 }, masks)).toBe(F);
    expect(evaluate({ kind: "const", truth: 1 }, masks)).toBe(T);
    expect(evaluate({ kind: "const", truth: 2 }, masks)).toBe(U);
    expect(evaluate(atom(1), masks)).toBe(U);
    expect(evaluate(not(atom(0)), masks)).toBe(F | T);
    expect(evaluate(not(atom(1)), masks)).toBe(U);
    expect(evaluate(not(atom(2)), masks)).toBe(F);
    expect(evaluate(not(atom(3)), masks)).toBe(T);
    expect(evaluate(and(), masks)).toBe(T);
    expect(evaluate(and(atom(2)), masks)).toBe(T);
    expect(evaluate(and(atom(0), atom(1)), masks)).toBe(F | U);
    expect(evaluate(and(atom(2), atom(1)), masks)).toBe(U);
    expect(evaluate(and(atom(1), atom(1)), masks)).toBe(U);
    expect(evaluate(and(atom(0), atom(2)), masks)).toBe(F | T);
    // A false part decides the conjunction, whatever follows.
    expect(evaluate(and(atom(3), atom(1)), masks)).toBe(F);
    expect(evaluate(and(atom(1), atom(3), atom(0)), masks)).toBe(F);
    expect(evaluate(and(atom(2), atom(3), atom(1)), masks)).toBe(F);
    expect(evaluate(not(and(atom(2), atom(1))), masks)).toBe(U);
    expect(evaluate(and(atom(0), not(atom(0))), masks)).toBe(F | T);
  });

  it("reads a maybe with a true or a maybe as a maybe, in either order", () => {
    for (const [a, b, want] of [
      [T, U, U],
      [U, T, U],
      [U, U, U],
      [T | U, U, U],
      [U, T | U, U],
      [T | U, T, T | U],
      [T, T | U, T | U],
      [F | U, T, F | U],
      [T, F | U, F | U],
      [F | T, U, F | U],
      [U, F | T, F | U],
      [F | T, F | T, F | T],
    ] as const) {
      expect(evaluate(and(atom(0), atom(1)), Uint8Array.from([a, b])), `${a} ${b}`).toBe(want);
    }
  });
});

describe("truthOf", () => {
  it("is Kleene logic on concrete truths", () => {
    fc.assert(
      fc.property(formula, fc.array(truth, { minLength: ATOMS, maxLength: ATOMS }), (f, truths) => {
        expect(truthOf(f, truths)).toBe(kleene(f, truths));
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it("answers each truth of one atom and of its negation", () => {
    for (const t of [0, 1, 2] as const) {
      expect(truthOf(atom(0), [t])).toBe(t);
      expect(truthOf(not(atom(0)), [t])).toBe(t === 2 ? 2 : 1 - t);
    }
    expect(truthOf(and(atom(0), atom(1)), [1, 2])).toBe(2);
    expect(truthOf(and(atom(0), atom(1)), [2, 0])).toBe(0);
    expect(truthOf(and(atom(0), atom(1)), [1, 1])).toBe(1);
  });
});

describe("atomsOf", () => {
  it("lists every atom a formula reads, once", () => {
    const f = and(atom(3), not(and(atom(1), atom(3))), { kind: "const", truth: 2 }, not(not(atom(0))));
    expect([...atomsOf(f)].sort()).toEqual([0, 1, 3]);
    expect([...atomsOf({ kind: "const", truth: 1 })]).toEqual([]);
    expect([...atomsOf(not(atom(5)))]).toEqual([5]);
  });

  it("adds to the set it is given and returns it", () => {
    const out = new Set([7]);
    expect(atomsOf(and(atom(2), not(atom(4))), out)).toBe(out);
    expect([...out].sort()).toEqual([2, 4, 7]);
  });
});

describe("AtomTable", () => {
  const a = fieldRef("arguments", "a");

  it("numbers atoms in order and shares one between equal operators on a field", () => {
    const table = new AtomTable();
    expect(table.atom(a, "glob", "src/**")).toBe(0);
    expect(table.atom(a, "prefix", "src/")).toBe(1);
    expect(table.atom(a, "glob", "src/**")).toBe(0);
    // Equal values in another key order are one value.
    expect(table.atom(a, "url", { host: "x.org", scheme: "https" })).toBe(2);
    expect(table.atom(a, "url", { scheme: "https", host: "x.org" })).toBe(2);
    // Another field, scope or operator is another atom.
    expect(table.atom(fieldRef("arguments", "b"), "glob", "src/**")).toBe(3);
    expect(table.atom(fieldRef("context", "a"), "glob", "src/**")).toBe(4);
    expect(table.atom(a, "glob", ["src/**"])).toBe(5);
    expect(table.atoms.length).toBe(6);
    expect(table.atoms.map((x) => x.id)).toEqual([0, 1, 2, 3, 4, 5]);
    const first = table.atoms[0];
    expect(first?.field).toBe(a);
    expect(first?.operator).toBe("glob");
    expect(first?.value).toBe("src/**");
    expect(table.atoms[3]?.field.key).toBe("arguments:b");
  });

  it("tests a value, and a missing field, with the runtime's operator", () => {
    const table = new AtomTable();
    const exists = table.atoms[table.atom(a, "exists", true)];
    const absent = table.atoms[table.atom(a, "exists", false)];
    const glob = table.atoms[table.atom(a, "glob", "src/*.ts")];
    expect(exists?.test(undefined)).toBe(0);
    expect(exists?.test("x")).toBe(1);
    expect(exists?.test(null)).toBe(1);
    expect(absent?.test(undefined)).toBe(1);
    expect(absent?.test(0)).toBe(0);
    expect(glob?.test("src/a.ts")).toBe(1);
    expect(glob?.test("lib/a.ts")).toBe(0);
    expect(glob?.test("SRC/a.ts")).toBe(2);
    expect(glob?.test(undefined)).toBe(0);
  });

  it("refuses an operator that does not compile, naming it and its field", () => {
    const table = new AtomTable();
    let thrown: unknown;
    try {
      table.atom(a, "glob", "[");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InternalError);
    expect((thrown as Error).message).toMatch(
      /^operator glob on arguments:a does not compile: glob "\[": .+/,
    );
    expect((thrown as Error).message).not.toMatch(/; /);
    expect(() => table.atom(fieldRef("context", "x.y"), "regex", "(")).toThrow(
      /^operator regex on context:x.y does not compile: /,
    );
    expect(table.atoms).toEqual([]);
  });

  it("joins several compile problems with semicolons", () => {
    const table = new AtomTable();
    expect(() => table.atom(a, "glob", ["[", "{"])).toThrow(/does not compile: glob "\[": .+; glob "\{": .+/);
  });

  it("keeps custom atoms with their own test, shared by key with the operator atoms", () => {
    const table = new AtomTable();
    const test = (v: unknown): Truth => (v === "yes" ? 1 : 0);
    const id = table.custom(a, "schema", { side: 0 }, test);
    expect(id).toBe(0);
    expect(table.atoms[0]).toEqual({ id: 0, field: a, operator: "schema", value: { side: 0 }, test });
    expect(table.custom(a, "schema", { side: 0 }, () => 2)).toBe(0);
    expect(table.atoms[0]?.test("yes")).toBe(1);
    expect(table.custom(a, "schema", { side: 1 }, test)).toBe(1);
    expect(table.custom(fieldRef("context", "a"), "schema", { side: 0 }, test)).toBe(2);
    // An operator atom and a custom one of the same key are one atom, whichever comes first.
    expect(table.atom(a, "prefix", "x")).toBe(3);
    expect(table.custom(a, "prefix", "x", () => 2)).toBe(3);
    expect(table.custom(a, "glob", "*.md", () => 2)).toBe(4);
    expect(table.atom(a, "glob", "*.md")).toBe(4);
    expect(table.atoms[4]?.test("a.md")).toBe(2);
    expect(table.atoms.length).toBe(5);
  });
});

describe("AtomTable.condition", () => {
  it("reads an absent or empty condition as true", () => {
    const table = new AtomTable();
    expect(table.condition(undefined, "arguments")).toBe(TRUE_FORMULA);
    expect(table.condition({}, "context")).toBe(TRUE_FORMULA);
    expect(TRUE_FORMULA).toEqual({ kind: "const", truth: 1 });
    expect(Object.isFrozen(TRUE_FORMULA)).toBe(true);
    expect(table.atoms).toEqual([]);
  });

  it("makes one atom of a field with one operator, and a conjunction of several, in the runtime's order", () => {
    const table = new AtomTable();
    expect(table.condition({ path: { glob: "*.md" } }, "arguments")).toEqual(atom(0));
    expect(table.atoms[0]?.field).toEqual(fieldRef("arguments", "path"));
    // Operators compile in the runtime's order (exists, equals, …, glob, regex, …, not), not as written.
    expect(table.condition({ path: { regex: "x", glob: "*.md", exists: true } }, "arguments")).toEqual(
      and(atom(1), atom(0), atom(2)),
    );
    expect(table.atoms.map((x) => x.operator)).toEqual(["glob", "exists", "regex"]);
    expect(table.condition({ "a.b": { prefix: "x" }, c: { not: { prefix: "y" } } }, "context")).toEqual(
      and(atom(3), not(atom(4))),
    );
    expect(table.atoms[3]?.field).toEqual(fieldRef("context", "a.b"));
    expect(table.atoms[4]?.field).toEqual(fieldRef("context", "c"));
    expect(table.atoms[4]?.operator).toBe("prefix");
    // `not` of several operators negates their conjunction; `any` and `all` are atoms of their own.
    expect(
      table.condition({ f: { not: { prefix: "a", equals: "b" }, any: { prefix: "c" } } }, "arguments"),
    ).toEqual(and(atom(5), not(and(atom(6), atom(7)))));
    expect(table.atoms.slice(5).map((x) => [x.operator, x.value])).toEqual([
      ["any", { prefix: "c" }],
      ["equals", "b"],
      ["prefix", "a"],
    ]);
  });

  it("leaves out an operator key whose value is undefined, unless the operator reads its own key", () => {
    const table = new AtomTable();
    expect(
      table.condition({ f: { glob: undefined, prefix: "x" } } as unknown as ConditionSpec, "arguments"),
    ).toEqual(atom(0));
    expect(table.atoms.map((x) => x.operator)).toEqual(["prefix"]);
    // `exists: undefined` is an operator of the runtime (false): the verifier keys its value as canonical JSON,
    // which has no undefined.
    expect(() => table.condition({ f: { exists: undefined } } as ConditionSpec, "arguments")).toThrow(
      /cannot encode a undefined/,
    );
  });

  it("skips operator names inherited rather than written", () => {
    const table = new AtomTable();
    const spec = Object.create({ exists: true, prefix: "x" }) as Record<string, unknown>;
    spec.glob = "*.md";
    expect(table.condition({ f: spec } as ConditionSpec, "arguments")).toEqual(atom(0));
    expect(table.atoms.map((x) => x.operator)).toEqual(["glob"]);
  });

  const VALUES: readonly unknown[] = [
    undefined,
    "x",
    "xy",
    "ab",
    "a/b.md",
    "A/B.MD",
    "",
    1,
    5,
    true,
    null,
    ["x"],
    {},
  ];
  const leaf = fc.oneof(
    fc.boolean().map((b) => ({ exists: b })),
    fc.constantFrom("x", 1, true, null).map((v) => ({ equals: v })),
    fc.constant({ in: ["x", 5] }),
    fc.constantFrom("x", "a").map((p) => ({ prefix: p })),
    fc.constantFrom("*.md", "a/**").map((g) => ({ glob: g })),
    fc.constantFrom("^x", "b").map((r) => ({ regex: r })),
    fc.constantFrom(1, 3).map((n) => ({ min: n })),
    fc.constantFrom(2, 5).map((n) => ({ max: n })),
    fc.constant({ any: { equals: "x" } }),
  );
  const { ops } = fc.letrec<{ ops: Record<string, unknown> }>((tie) => ({
    ops: fc.oneof(
      { depthSize: "small" },
      leaf,
      fc.tuple(leaf, leaf).map(([x, y]) => ({ ...x, ...y })),
      tie("ops").map((o) => ({ not: o })),
      fc.tuple(leaf, tie("ops")).map(([x, o]) => ({ ...x, not: o })),
    ),
  }));
  const spec = fc.dictionary(fc.constantFrom("a", "b", "c.d"), ops, { minKeys: 1, maxKeys: 3 });

  it("gives the runtime's truth of the whole condition from its atoms' truths", () => {
    fc.assert(
      fc.property(spec, fc.array(fc.constantFrom(...VALUES), { minLength: 3, maxLength: 3 }), (s, vs) => {
        const condition = s as ConditionSpec;
        const compiled = compileCondition(condition);
        if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
        const table = new AtomTable();
        const f = table.condition(condition, "arguments");
        const subject: Record<string, unknown> = {};
        if (vs[0] !== undefined) subject.a = vs[0];
        if (vs[1] !== undefined) subject.b = vs[1];
        subject.c = vs[2] === undefined ? {} : { d: vs[2] };
        const truths = table.atoms.map((x) => x.test(readField(subject, x.field.path)));
        expect(truthOf(f, truths), JSON.stringify([s, subject])).toBe(compiled.condition(subject));
        expect([...atomsOf(f)].sort((x, y) => x - y)).toEqual(table.atoms.map((x) => x.id));
      }),
      { numRuns: RUNS * 2 },
    );
  });
});
