/**
 * The search (search.ts) against enumeration: on tools whose every call can be listed (an enum field, a short
 * string field over two letters, a small integer field), the concrete models of an exhaustive search cover exactly
 * the classes of calls — by every atom's truth — that reach a goal, each model's values really reach it, and the
 * options that stop a search early (models, budget, accept, failed witnesses) stop it and say so.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../src/runtime/types.js";
import { evaluate, F, type Formula, T, truthOf, U } from "../../src/verify/formula.js";
import { type Goal, MISSED, type Model, REACHED, searchModels } from "../../src/verify/search.js";
import { ToolQuestion } from "../../src/verify/verify-properties.js";

const RUNS = Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200);

const SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    e: { type: "string", enum: ["a", "b", "c"] },
    s: { type: "string", maxLength: 2, pattern: "^[xy]*$" },
    n: { type: "integer", minimum: 0, maximum: 3 },
  },
  required: ["e", "s", "n"],
  additionalProperties: false,
};

/** Every valid call of SCHEMA. */
const CALLS: Record<string, unknown>[] = [];
for (const e of ["a", "b", "c"])
  for (const s of ["", "x", "y", "xx", "xy", "yx", "yy"])
    for (let n = 0; n <= 3; n++) CALLS.push({ e, s, n });

/** Operators that each field may carry. */
const OPERATORS: Record<string, readonly (readonly [string, unknown])[]> = {
  e: [
    ["equals", "a"],
    ["in", ["a", "b"]],
  ],
  s: [
    ["prefix", "x"],
    ["regex", "y$"],
    ["equals", "xy"],
  ],
  n: [
    ["min", 2],
    ["max", 0],
  ],
};

interface Setup {
  readonly question: ToolQuestion;
  readonly formula: Formula;
}

/** A question over SCHEMA with the chosen operators, and a formula of its atoms (a conjunction of literals). */
function setup(chosen: readonly (readonly [string, number])[], negate: readonly boolean[]): Setup {
  const question = new ToolQuestion([SCHEMA], [null]);
  const parts: Formula[] = [];
  chosen.forEach(([field, index], i) => {
    const entry = OPERATORS[field]?.[index];
    if (entry === undefined) throw new Error(`no operator ${field}${index}`);
    const [operator, value] = entry;
    const atom = question.table.atom(
      { scope: "arguments", path: [field], key: `arguments:${field}` },
      operator,
      value,
    );
    const literal: Formula = { kind: "atom", atom };
    parts.push(negate[i] === true ? { kind: "not", of: literal } : literal);
  });
  question.buildFields();
  return { question, formula: { kind: "and", of: parts } };
}

/** The goal "the formula is true". */
function goalOf(formula: Formula): Goal {
  return {
    reach: (masks) => {
      const m = evaluate(formula, masks);
      return (m & T ? REACHED : 0) | (m & (F | U) ? MISSED : 0);
    },
  };
}

/** Every atom's truth on a call, as a key. */
function classOf(question: ToolQuestion, call: Record<string, unknown>): string {
  return question.table.atoms.map((a) => a.test(call[a.field.path[0] as string])).join("");
}

const choice = fc
  .uniqueArray(
    fc.oneof(
      fc.tuple(fc.constant("e"), fc.integer({ min: 0, max: 1 })),
      fc.tuple(fc.constant("s"), fc.integer({ min: 0, max: 2 })),
      fc.tuple(fc.constant("n"), fc.integer({ min: 0, max: 1 })),
    ),
    { minLength: 1, maxLength: 5, selector: ([f, i]) => `${f}${i}` },
  )
  .chain((chosen) =>
    fc.tuple(
      fc.constant(chosen),
      fc.array(fc.boolean(), { minLength: chosen.length, maxLength: chosen.length }),
    ),
  );

describe("searchModels", () => {
  it("finds exactly the classes of calls that reach the goal, each with values that reach it", () => {
    let reachedSome = 0;
    fc.assert(
      fc.property(choice, ([chosen, negate]) => {
        const { question, formula } = setup(chosen, negate);
        const atoms = question.table.atoms;
        const result = searchModels(question.fields, atoms.length, goalOf(formula), {
          concreteOnly: true,
          maxModels: 10_000,
        });
        expect(result.complete).toBe(true);
        const found = new Set<string>();
        for (const model of result.models) {
          const call: Record<string, unknown> = {};
          for (const [key, v] of model.values) call[key.replace(/^arguments:/, "")] = v.value;
          expect(model.abstract.size).toBe(0);
          const truths = atoms.map((a) => a.test(call[a.field.path[0] as string]));
          // The model's masks are the values' own truths, and the formula is true on them.
          expect(Array.from(model.masks, (m, i) => (m === 1 << (truths[i] as number) ? "=" : m))).toEqual(
            atoms.map(() => "="),
          );
          expect(truthOf(formula, truths)).toBe(1);
          found.add(truths.join(""));
        }
        const want = new Set(
          CALLS.filter(
            (c) =>
              truthOf(
                formula,
                atoms.map((a) => a.test(c[a.field.path[0] as string])),
              ) === 1,
          ).map((c) => classOf(question, c)),
        );
        if (want.size > 0) reachedSome++;
        expect([...found].sort()).toEqual([...want].sort());
      }),
      { numRuns: RUNS },
    );
    expect(reachedSome).toBeGreaterThan(RUNS / 4);
  });

  it("without concreteOnly, gives the same models when every value can be built", () => {
    const { question, formula } = setup(
      [
        ["s", 0],
        ["n", 0],
      ],
      [false, true],
    );
    const goal = goalOf(formula);
    const concrete = searchModels(question.fields, question.table.atoms.length, goal, {
      concreteOnly: true,
      maxModels: 100,
    });
    const any = searchModels(question.fields, question.table.atoms.length, goal, {
      concreteOnly: false,
      maxModels: 100,
    });
    const values = (r: typeof any) => r.models.map((m) => JSON.stringify([...m.values]));
    expect(values(any)).toEqual(values(concrete));
    expect(concrete.models.length).toBeGreaterThan(0);
  });

  it("stops at maxModels (complete: as many as asked), at the budget (incomplete), and when accept says so", () => {
    const { question } = setup(
      [
        ["s", 1],
        ["n", 0],
      ],
      [false, false],
    );
    // Reached and missed alike: every class of calls is a model.
    const goal: Goal = { reach: () => REACHED | MISSED };
    const n = question.table.atoms.length;
    const all = searchModels(question.fields, n, goal, { concreteOnly: true, maxModels: 1000 });
    expect(all.models.length).toBeGreaterThan(2);
    expect(all.complete).toBe(true);
    const one = searchModels(question.fields, n, goal, { concreteOnly: true, maxModels: 1 });
    expect(one.models).toHaveLength(1);
    expect(one.complete).toBe(true);
    const starved = searchModels(question.fields, n, goal, {
      concreteOnly: true,
      maxModels: 1000,
      budget: 1,
    });
    expect(starved.complete).toBe(false);
    let asked = 0;
    const accepted = searchModels(question.fields, n, goal, {
      concreteOnly: true,
      maxModels: 1000,
      accept: () => ++asked === 2,
    });
    expect(asked).toBe(2);
    expect(accepted.models).toHaveLength(2);
    expect(accepted.complete).toBe(false);
    // A goal nothing reaches: no model, complete.
    const never = searchModels(
      question.fields,
      n,
      { reach: () => MISSED },
      { concreteOnly: true, maxModels: 10 },
    );
    expect(never).toEqual({ models: [], complete: true });
  });

  it("tries the plainest truths first: false, then true, then maybe", () => {
    const { question } = setup([["s", 0]], [false]);
    const result = searchModels(
      question.fields,
      question.table.atoms.length,
      { reach: () => REACHED | MISSED },
      {
        concreteOnly: true,
        maxModels: 10,
      },
    );
    expect(result.models.map((m) => m.masks[0])).toEqual([F, T]);
  });
});

describe("searchModels, abstract models", () => {
  const OBJECT_SCHEMA: JsonSchema = {
    type: "object",
    properties: {
      o: { type: "object", properties: { k: { type: "string" } } },
      a: { type: "array", items: { type: "string" } },
    },
    required: ["o", "a"],
    additionalProperties: false,
  };

  it("walks the contents of objects and arrays only abstractly, and says so", () => {
    const question = new ToolQuestion([OBJECT_SCHEMA], [null]);
    const o = question.table.atom({ scope: "arguments", path: ["o"], key: "arguments:o" }, "equals", {
      k: "x",
    });
    const a = question.table.atom({ scope: "arguments", path: ["a"], key: "arguments:a" }, "equals", ["y"]);
    question.buildFields();
    const formula: Formula = {
      kind: "and",
      of: [
        { kind: "atom", atom: o },
        { kind: "atom", atom: a },
      ],
    };
    const goal = goalOf(formula);
    const n = question.table.atoms.length;
    const loose = searchModels(question.fields, n, goal, { concreteOnly: false, maxModels: 100 });
    const reasons = new Set(loose.models.flatMap((m) => [...m.abstract.values()]));
    expect([...reasons].sort()).toEqual([
      "the contents of arrays are not enumerated",
      "the contents of objects are not enumerated",
    ]);
    for (const m of loose.models) {
      for (const key of m.abstract.keys()) expect(m.values.has(key)).toBe(false);
    }
    // The concrete search never gives a model with a field it could not build.
    const concrete = searchModels(question.fields, n, goal, { concreteOnly: true, maxModels: 100 });
    for (const m of concrete.models) expect(m.abstract.size).toBe(0);
    expect(concrete.complete).toBe(true);
  });

  it("gives a string field it cannot build the reason of its operators", () => {
    const question = new ToolQuestion(
      [
        {
          type: "object",
          properties: { c: { type: "string" } },
          required: ["c"],
          additionalProperties: false,
        },
      ],
      [null],
    );
    const ref = { scope: "arguments" as const, path: ["c"], key: "arguments:c" };
    const cmd = question.table.atom(ref, "command", ["git push"]);
    const rm = question.table.atom(ref, "command", ["rm"]);
    question.buildFields();
    // Both certain: no string has it (the facts say so), concrete or not.
    const both: Formula = {
      kind: "and",
      of: [
        { kind: "atom", atom: cmd },
        { kind: "atom", atom: rm },
      ],
    };
    const n = question.table.atoms.length;
    expect(
      searchModels(question.fields, n, goalOf(both), { concreteOnly: false, maxModels: 10 }).models,
    ).toEqual([]);
    // A maybe for both: a string the engine builds (`a git push rm`-like) or, abstractly, the reason.
    const maybe: Goal = {
      reach: (masks) => ((masks[cmd] as number) & U && (masks[rm] as number) & U ? REACHED : 0) | MISSED,
    };
    const loose = searchModels(question.fields, n, maybe, { concreteOnly: false, maxModels: 50 });
    expect(loose.models.length).toBeGreaterThan(0);
    for (const m of loose.models) {
      const reason = m.abstract.get("arguments:c");
      if (reason !== undefined)
        expect(reason).toMatch(/`command` is decided exactly only on the strings tried/);
      else expect(typeof m.values.get("arguments:c")?.value).toBe("string");
    }
  });
});

describe("searchModels, limits and reasons", () => {
  /** A question on one string field `f` (no other constraint) with the given operators, in order. */
  function stringField(operators: readonly (readonly [string, unknown])[]): {
    question: ToolQuestion;
    atoms: number[];
  } {
    const question = new ToolQuestion(
      [
        {
          type: "object",
          properties: { f: { type: "string" } },
          required: ["f"],
          additionalProperties: false,
        },
      ],
      [null],
    );
    const ref = { scope: "arguments" as const, path: ["f"], key: "arguments:f" };
    const atoms = operators.map(([operator, value]) => question.table.atom(ref, operator, value));
    question.buildFields();
    return { question, atoms };
  }

  /** A pattern whose lazy DFA may pass the work bound on long strings (2^14 states): it may answer maybe. */
  const SLOW = ["regex", "^(a|b)*a(a|b){12}$"] as const;
  const REGEX_REASON = "a regex may answer maybe past the engine's work bound on long strings";
  const PATH_REASON =
    "paths outside the simple subset (such as ./a, a//b, a\\b, A/../b or non-ASCII names) are read several ways";

  it("names every kind of operator of a field whose strings with a maybe it cannot build", () => {
    const cases: [readonly (readonly [string, unknown])[], string][] = [
      [[SLOW], REGEX_REASON],
      [[SLOW, ["prefix", "a"]], REGEX_REASON],
      [[SLOW, ["glob", "src/**"]], `${PATH_REASON}; ${REGEX_REASON}`],
      [[SLOW, ["path_prefix", "src/"]], `${PATH_REASON}; ${REGEX_REASON}`],
      [
        [SLOW, ["command", ["ls"]]],
        `\`command\` is decided exactly only on the strings tried; ${REGEX_REASON}`,
      ],
      [
        [SLOW, ["url", { host: "example.com" }]],
        `\`url\` is decided exactly only on the URLs tried; ${REGEX_REASON}`,
      ],
      [
        [SLOW, ["url", { host: "example.com" }], ["command", ["ls"]], ["glob", "src/**"]],
        `${PATH_REASON}; \`command\` is decided exactly only on the strings tried; \`url\` is decided exactly only on the URLs tried; ${REGEX_REASON}`,
      ],
    ];
    for (const [operators, reason] of cases) {
      const { question, atoms } = stringField(operators);
      const slow = atoms[0] as number;
      const n = question.table.atoms.length;
      // Reached as soon as the slow regex is maybe (the search completes the model at once), and reached only with
      // every atom decided (the search walks the field to its end).
      const settled: Goal = {
        reach: (m) => ((m[slow] as number) & U ? REACHED : 0) | ((m[slow] as number) & (T | F) ? MISSED : 0),
      };
      const open: Goal = { reach: (m) => ((m[slow] as number) & U ? REACHED : 0) | MISSED };
      for (const goal of [settled, open]) {
        const loose = searchModels(question.fields, n, goal, { concreteOnly: false, maxModels: 100 });
        expect(loose.complete).toBe(true);
        // Settled: one model, whatever the other atoms are; open: one per class of the other atoms.
        if (goal === settled) expect(loose.models).toHaveLength(1);
        else expect(loose.models.length).toBeGreaterThan(0);
        for (const m of loose.models) {
          expect([...m.abstract]).toEqual([["arguments:f", reason]]);
          expect(m.values.size).toBe(0);
          expect(m.loose).toBe(0);
          expect(m.masks[slow]).toBe(U);
        }
        expect(searchModels(question.fields, n, goal, { concreteOnly: true, maxModels: 100 })).toEqual({
          models: [],
          complete: true,
        });
      }
    }
  });

  it("gives one abstract model per decided class of the other atoms when the goal reads them all", () => {
    const { question, atoms } = stringField([SLOW, ["prefix", "a"]]);
    const [slow, prefix] = atoms as [number, number];
    const goal: Goal = { reach: (m) => ((m[slow] as number) & U ? REACHED : 0) | MISSED };
    const loose = searchModels(question.fields, question.table.atoms.length, goal, {
      concreteOnly: false,
      maxModels: 100,
    });
    expect(loose.models.map((m) => [m.masks[slow], m.masks[prefix]])).toEqual([
      [U, F],
      [U, T],
    ]);
  });

  it("stops a concrete search after maxFailedWitnesses regions it could not build, and says it is incomplete", () => {
    const { question, atoms } = stringField([SLOW, ["prefix", "a"]]);
    const slow = atoms[0] as number;
    const goal: Goal = { reach: (m) => ((m[slow] as number) & U ? REACHED : 0) | MISSED };
    const n = question.table.atoms.length;
    // Two regions (prefix false, prefix true) with the regex maybe: no string of either is built.
    const run = (maxFailedWitnesses: number | undefined) =>
      searchModels(question.fields, n, goal, {
        concreteOnly: true,
        maxModels: 10,
        ...(maxFailedWitnesses === undefined ? {} : { maxFailedWitnesses }),
      });
    expect(run(undefined)).toEqual({ models: [], complete: true });
    expect(run(1)).toEqual({ models: [], complete: false });
    expect(run(2)).toEqual({ models: [], complete: false });
    expect(run(3)).toEqual({ models: [], complete: true });
    // Not counted when abstract models are asked for: the region is then a model.
    expect(
      searchModels(question.fields, n, goal, { concreteOnly: false, maxModels: 10, maxFailedWitnesses: 1 })
        .complete,
    ).toBe(true);
  });

  it("counts one visit per choice: the budget that covers them all is complete, one less is not", () => {
    const question = new ToolQuestion(
      [{ type: "object", properties: { e: { type: "string", enum: ["a", "b", "c"] } }, required: ["e"] }],
      [null],
    );
    question.table.atom({ scope: "arguments", path: ["e"], key: "arguments:e" }, "equals", "a");
    question.buildFields();
    const options = question.fields[0]?.options() ?? [];
    expect(options).toHaveLength(3);
    const goal: Goal = { reach: () => REACHED | MISSED };
    // The root, then one visit per option (each a complete call).
    const run = (budget: number) =>
      searchModels(question.fields, 1, goal, { concreteOnly: true, maxModels: 100, budget });
    const all = run(1 + options.length);
    expect(all.complete).toBe(true);
    expect(all.models.map((m) => m.values.get("arguments:e")?.value)).toEqual(["a", "b", "c"]);
    const short = run(options.length);
    expect(short.complete).toBe(false);
    expect(short.models.map((m) => m.values.get("arguments:e")?.value)).toEqual(["a", "b"]);
  });

  it("fills the fields a reached goal does not read with a value each could have, or says none was built", () => {
    const question = new ToolQuestion(
      [
        {
          type: "object",
          properties: {
            e: { type: "string", enum: ["a", "b"] },
            s: { type: "string", pattern: "^x+$" },
            o: { type: "object" },
          },
          required: ["e", "s", "o"],
          additionalProperties: false,
        },
      ],
      [null],
    );
    const e = question.table.atom({ scope: "arguments", path: ["e"], key: "arguments:e" }, "equals", "b");
    question.table.atom({ scope: "arguments", path: ["s"], key: "arguments:s" }, "prefix", "xx");
    question.table.atom({ scope: "arguments", path: ["o"], key: "arguments:o" }, "equals", { k: 1 });
    question.buildFields();
    // Reached exactly when e is "b", whatever the others are.
    const goal: Goal = {
      reach: (m) => ((m[e] as number) & T ? REACHED : 0) | ((m[e] as number) & (F | U) ? MISSED : 0),
    };
    const n = question.table.atoms.length;
    const concrete = searchModels(question.fields, n, goal, { concreteOnly: true, maxModels: 10 });
    expect(concrete.complete).toBe(true);
    expect(concrete.models).toHaveLength(1);
    const [model] = concrete.models as [Model];
    expect(model.values.get("arguments:e")).toEqual({ value: "b" });
    expect(model.values.get("arguments:o")).toEqual({ value: { k: 1 } });
    expect(model.values.get("arguments:s")?.value).toMatch(/^x+$/);
    expect(model.abstract.size).toBe(0);
    expect(model.masks[e]).toBe(T);
  });

  it("gives a settled command field its plain string, then a compound command of its words, each as a model", () => {
    const { question, atoms } = stringField([
      ["command", ["git status"]],
      ["command", ["npm test"]],
    ]);
    const gs = atoms[0] as number;
    // Reached as soon as `git status` is a maybe, whatever `npm test` is.
    const goal: Goal = {
      reach: (m) => ((m[gs] as number) & U ? REACHED : 0) | ((m[gs] as number) & (F | T) ? MISSED : 0),
    };
    const n = question.table.atoms.length;
    const both = searchModels(question.fields, n, goal, { concreteOnly: true, maxModels: 10 });
    expect(both.complete).toBe(true);
    expect(both.models.map((m) => [m.values.get("arguments:f")?.value, m.loose, [...m.masks]])).toEqual([
      ["a git status", 1, [U, 7]],
      ["git status && npm test", 1, [U, 7]],
    ]);
    const first = searchModels(question.fields, n, goal, { concreteOnly: true, maxModels: 1 });
    expect(first.models.map((m) => m.values.get("arguments:f")?.value)).toEqual(["a git status"]);
    expect(first.complete).toBe(true);
  });

  it("completes a string field at once when the goal is settled, with the truths decided so far", () => {
    const { question, atoms } = stringField([
      ["prefix", "a"],
      ["prefix", "ab"],
    ]);
    const a = atoms[0] as number;
    const goal: Goal = {
      reach: (m) => ((m[a] as number) & T ? REACHED : 0) | ((m[a] as number) & (F | U) ? MISSED : 0),
    };
    const result = searchModels(question.fields, question.table.atoms.length, goal, {
      concreteOnly: true,
      maxModels: 10,
    });
    expect(result.models).toHaveLength(1);
    const [model] = result.models as [Model];
    expect([...model.masks]).toEqual([T, 7]);
    expect(model.values.get("arguments:f")?.value).toMatch(/^a/);
    expect(model.loose).toBe(0);
  });

  it("spends no visit on a truth the goal excludes", () => {
    const { question, atoms } = stringField([["prefix", "a"]]);
    const a = atoms[0] as number;
    // Reached only with the prefix true, and every atom decided: the root, the field's atoms, the true branch and
    // the call after it are the four visits.
    const goal: Goal = { reach: (m) => ((m[a] as number) & T ? REACHED : 0) | MISSED };
    const run = (budget: number) =>
      searchModels(question.fields, question.table.atoms.length, goal, {
        concreteOnly: true,
        maxModels: 10,
        budget,
      });
    const four = run(4);
    expect(four.complete).toBe(true);
    expect(four.models.map((m) => [...m.masks])).toEqual([[T]]);
    expect(run(3)).toEqual({ models: [], complete: false });
    // Out of budget on the prefix's true branch: nothing is recorded past the budget, not even a settled model.
    expect(run(2)).toEqual({ models: [], complete: false });
  });

  it("says a field whose automata are too large is not decided, and builds no concrete model of it", () => {
    const question = new ToolQuestion(
      [
        {
          type: "object",
          properties: { f: { type: "string", maxLength: 40 } },
          required: ["f"],
          additionalProperties: false,
        },
      ],
      [null],
    );
    const ref = { scope: "arguments" as const, path: ["f"], key: "arguments:f" };
    // The 17th letter from the end: a deterministic automaton of 2^17 states, past the engine's bound.
    const big = question.table.atom(ref, "regex", "[ab]*a[ab]{16}$");
    question.buildFields();
    expect(question.fields[0]?.strings()).toBeNull();
    const goal: Goal = { reach: (m) => ((m[big] as number) & T ? REACHED : 0) | MISSED };
    const n = question.table.atoms.length;
    expect(searchModels(question.fields, n, goal, { concreteOnly: true, maxModels: 10 })).toEqual({
      models: [],
      complete: true,
    });
    const loose = searchModels(question.fields, n, goal, { concreteOnly: false, maxModels: 10 });
    expect(loose.models.map((m) => [[...m.abstract], m.values.size, [...m.masks]])).toEqual([
      [[["arguments:f", "its string operators are too large to decide here"]], 0, [7]],
    ]);
    // A goal reached whatever the call is: the field is completed at once, and no value of it was built.
    const always = searchModels(
      question.fields,
      n,
      { reach: () => REACHED },
      { concreteOnly: false, maxModels: 10 },
    );
    expect(always.models.map((m) => [[...m.abstract], m.values.size, [...m.masks]])).toEqual([
      [[["arguments:f", "no value of it was built"]], 0, [7]],
    ]);
  });

  it("names only the operators a field has when no regex is among them", () => {
    const cases: [readonly (readonly [string, unknown])[], number, string][] = [
      [
        [
          ["url", { host: "example.com" }],
          ["url", { host: "other.org" }],
        ],
        F,
        "`url` is decided exactly only on the URLs tried",
      ],
      [
        [
          // A prefix certain of every plain path and a glob of all of them only a maybe there: no string the search
          // builds has both (nor has any string, which no fact between the two says).
          ["glob", "**"],
          ["path_prefix", "."],
        ],
        T,
        PATH_REASON,
      ],
    ];
    for (const [operators, second, reason] of cases) {
      const { question, atoms } = stringField(operators);
      const [a, b] = atoms as [number, number];
      const goal: Goal = {
        reach: (m) => ((m[a] as number) & U && (m[b] as number) & second ? REACHED : 0) | MISSED,
      };
      const loose = searchModels(question.fields, question.table.atoms.length, goal, {
        concreteOnly: false,
        maxModels: 10,
      });
      expect(loose.models.map((m) => [[...m.abstract], [...m.masks]])).toEqual([
        [[["arguments:f", reason]], [U, second]],
      ]);
    }
  });

  it("counts no failed witness where a string was built", () => {
    const { question } = stringField([["prefix", "a"]]);
    const result = searchModels(
      question.fields,
      question.table.atoms.length,
      { reach: () => REACHED | MISSED },
      { concreteOnly: true, maxModels: 10, maxFailedWitnesses: 1 },
    );
    expect(result.complete).toBe(true);
    expect(result.models.map((m) => [...m.masks])).toEqual([[F], [T]]);
  });

  it("without concreteOnly, gives a field whose strings it built no abstract model besides", () => {
    const { question } = stringField([["prefix", "a"]]);
    const n = question.table.atoms.length;
    const goal: Goal = { reach: () => REACHED | MISSED };
    const loose = searchModels(question.fields, n, goal, { concreteOnly: false, maxModels: 10 });
    const concrete = searchModels(question.fields, n, goal, { concreteOnly: true, maxModels: 10 });
    expect(loose.models.map((m) => m.abstract.size)).toEqual([0, 0]);
    expect(loose).toEqual(concrete);
  });

  it("completes the fields after a settled string field from their own strings, or says none was built", () => {
    const question = new ToolQuestion(
      [
        {
          type: "object",
          properties: {
            f: { type: "string" },
            g: { type: "string", pattern: "^x+$" },
            h: { type: "string", maxLength: 40 },
          },
          required: ["f", "g", "h"],
          additionalProperties: false,
        },
      ],
      [null],
    );
    const at = (key: string, operator: string, value: unknown) =>
      question.table.atom({ scope: "arguments", path: [key], key: `arguments:${key}` }, operator, value);
    const f = at("f", "prefix", "a");
    at("g", "prefix", "xx");
    at("h", "regex", "[ab]*a[ab]{16}$");
    question.buildFields();
    expect(question.fields.map((d) => d.ref.key)).toEqual(["arguments:f", "arguments:g", "arguments:h"]);
    const goal: Goal = {
      reach: (m) => ((m[f] as number) & T ? REACHED : 0) | ((m[f] as number) & (F | U) ? MISSED : 0),
    };
    const n = question.table.atoms.length;
    // h's automata are too large: no value of it is built, so no concrete model.
    expect(searchModels(question.fields, n, goal, { concreteOnly: true, maxModels: 10 })).toEqual({
      models: [],
      complete: true,
    });
    const loose = searchModels(question.fields, n, goal, { concreteOnly: false, maxModels: 10 });
    expect(loose.models).toHaveLength(1);
    const [model] = loose.models as [Model];
    expect([...model.abstract]).toEqual([["arguments:h", "no value of it was built"]]);
    expect(model.values.get("arguments:f")?.value).toMatch(/^a/);
    expect(model.values.get("arguments:g")?.value).toMatch(/^x+$/);
    expect(model.values.has("arguments:h")).toBe(false);
  });

  it("says no string passed the runtime's check when a field with exact operators has none it could build", () => {
    // A URI that starts with `zz` exists (`zz:a`), but the engine's candidates of the region are not URIs (`uri` is
    // checked by the validator alone, not read as a language).
    const question = new ToolQuestion(
      [
        {
          type: "object",
          properties: { f: { type: "string", format: "uri" } },
          required: ["f"],
          additionalProperties: false,
        },
      ],
      [null],
    );
    const zz = question.table.atom({ scope: "arguments", path: ["f"], key: "arguments:f" }, "prefix", "zz");
    question.buildFields();
    const goal: Goal = { reach: (m) => ((m[zz] as number) & T ? REACHED : 0) | MISSED };
    const n = question.table.atoms.length;
    expect(searchModels(question.fields, n, goal, { concreteOnly: true, maxModels: 10 })).toEqual({
      models: [],
      complete: true,
    });
    const loose = searchModels(question.fields, n, goal, { concreteOnly: false, maxModels: 10 });
    expect(loose.models.map((m) => [[...m.abstract], m.values.size, [...m.masks]])).toEqual([
      [[["arguments:f", "no string of the region passed the runtime's check"]], 0, [T]],
    ]);
  });

  it("says an array may hold an element no string was built for, with the answer such an element gives", () => {
    const question = new ToolQuestion(
      [
        {
          type: "object",
          properties: { a: { type: "array", items: { type: "string" } } },
          required: ["a"],
          additionalProperties: false,
        },
      ],
      [null],
    );
    const any = question.table.atom({ scope: "arguments", path: ["a"], key: "arguments:a" }, "any", {
      regex: SLOW[1],
    });
    question.buildFields();
    // An element on which the slow regex answers maybe has no string the engine builds.
    const goal: Goal = { reach: (m) => ((m[any] as number) & U ? REACHED : 0) | MISSED };
    const n = question.table.atoms.length;
    expect(searchModels(question.fields, n, goal, { concreteOnly: true, maxModels: 10 })).toEqual({
      models: [],
      complete: true,
    });
    const loose = searchModels(question.fields, n, goal, { concreteOnly: false, maxModels: 10 });
    expect(loose.models.map((m) => [[...m.abstract], m.values.size, [...m.masks]])).toEqual([
      [[["arguments:a", "an array with an element of a kind no string was built for"]], 0, [U]],
    ]);
  });

  it("fills a field whose strings cannot be built with another kind of value it may have", () => {
    const question = new ToolQuestion(
      [
        {
          type: "object",
          properties: { f: { type: "string" }, h: { type: ["string", "object"], maxLength: 40 } },
          required: ["f", "h"],
          additionalProperties: false,
        },
      ],
      [null],
    );
    const f = question.table.atom({ scope: "arguments", path: ["f"], key: "arguments:f" }, "prefix", "a");
    question.table.atom({ scope: "arguments", path: ["h"], key: "arguments:h" }, "regex", "[ab]*a[ab]{16}$");
    question.buildFields();
    expect(question.fields.map((d) => d.ref.key)).toEqual(["arguments:f", "arguments:h"]);
    // h's strings are too large to decide, but an object is a value h may have.
    expect(question.fields[1]?.strings()).toBeNull();
    const goal: Goal = {
      reach: (m) => ((m[f] as number) & T ? REACHED : 0) | ((m[f] as number) & (F | U) ? MISSED : 0),
    };
    const concrete = searchModels(question.fields, question.table.atoms.length, goal, {
      concreteOnly: true,
      maxModels: 10,
    });
    expect(concrete.complete).toBe(true);
    expect(concrete.models.map((m) => [[...m.values], [...m.abstract]])).toEqual([
      [
        [
          ["arguments:f", { value: "a", loose: false }],
          ["arguments:h", { value: {} }],
        ],
        [],
      ],
    ]);
  });
});
