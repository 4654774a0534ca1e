/**
 * The Verifier (verify-properties.ts) on small policies whose every call is known: what each status says, the
 * witness it builds (arguments, the context's required fields, the decision after the mode), how properties over
 * several tools combine, and the reasons it gives when it cannot decide.
 */
import { describe, expect, it } from "vitest";
import { InternalError } from "../../src/runtime/errors.js";
import { ToolDecision } from "../../src/verify/decision-model.js";
import { AtomTable, type Formula } from "../../src/verify/formula.js";
import {
  callOf,
  decisionOnly,
  type Property,
  type PropertyResult,
  partsDecide,
  searchOrder,
  searchPriority,
  ToolQuestion,
  Verifier,
} from "../../src/verify/verify-properties.js";
import { loadFromText } from "./helpers.js";

const TOOLS = `tools:
  - name: count
    description: Counts.
    input_schema:
      type: object
      properties:
        n: { type: integer, minimum: 0, maximum: 10 }
      required: [n]
      additionalProperties: false
  - name: pick
    description: Picks.
    input_schema:
      type: object
      properties:
        s: { type: string, enum: [x, y] }
      required: [s]
      additionalProperties: false
  - name: store
    description: Stores an object.
    input_schema:
      type: object
      properties:
        o: { type: object, properties: { k: { type: string } } }
      required: [o]
      additionalProperties: false
  - name: strict
    description: No call of it is valid.
    input_schema:
      type: object
      properties:
        n: { type: integer, minimum: 0, maximum: 3 }
      required: [n]
      additionalProperties: false
      minProperties: 2
`;

const POLICY = `version: 1
rules:
  - id: small
    tools: [count]
    decision: allow
    when:
      n: { max: 5 }
    reason: small counts.
  - id: prod-count
    tools: [count]
    decision: ask
    context:
      env: { equals: prod }
    reason: ask in prod.
  - id: x
    tools: [pick]
    decision: allow
    when:
      s: { equals: x }
    reason: x is fine.
  - id: k
    tools: [store]
    decision: allow
    when:
      o: { equals: { k: v } }
    reason: that object.
  - id: strict
    tools: [strict]
    decision: allow
    reason: all of it.
`;

const CONTEXT =
  "context_schema:\n  type: object\n  properties:\n    env: { type: string, enum: [dev, prod] }\n  required: [env]\n  additionalProperties: false\n";

function verifier(mode = "enforce"): Verifier {
  const { bundle, validators } = loadFromText(TOOLS, POLICY, `mode: ${mode}\n${CONTEXT}`);
  return new Verifier(bundle, validators);
}

function one(property: Omit<Property, "id">, mode = "enforce"): PropertyResult {
  const [result] = verifier(mode).verify([{ id: "p", ...property }]);
  if (result === undefined) throw new Error("no result");
  return result;
}

describe("Verifier", () => {
  it("fails with the plainest call the controller confirms, its context filled with the required fields", () => {
    expect(one({ tools: ["count"], kind: "never", action: "allow" })).toEqual({
      id: "p",
      status: "fails",
      witness: { tool: "count", arguments: { n: 0 }, context: { env: "dev" }, decision: "allow" },
    });
    expect(one({ tools: ["count"], where: { n: { min: 6 } }, kind: "never", action: "allow" })).toEqual({
      id: "p",
      status: "holds",
    });
  });

  it("reads always as every selected call getting exactly the action", () => {
    expect(
      one({ tools: ["count"], context: { env: { equals: "prod" } }, kind: "always", action: "ask" }),
    ).toEqual({ id: "p", status: "holds" });
    expect(
      one({ tools: ["count"], context: { env: { equals: "dev" } }, kind: "always", action: "allow" }),
    ).toEqual({
      id: "p",
      status: "fails",
      witness: { tool: "count", arguments: { n: 6 }, context: { env: "dev" }, decision: "deny" },
    });
    expect(
      one({
        tools: ["count"],
        where: { n: { max: 5 } },
        context: { env: { equals: "dev" } },
        kind: "always",
        action: "allow",
      }),
    ).toEqual({ id: "p", status: "holds" });
  });

  it("selects the witness's context by the property's context condition", () => {
    expect(
      one({ tools: ["count"], context: { env: { equals: "prod" } }, kind: "never", action: "ask" }),
    ).toEqual({
      id: "p",
      status: "fails",
      witness: { tool: "count", arguments: { n: 0 }, context: { env: "prod" }, decision: "ask" },
    });
    expect(
      one({ tools: ["count"], context: { env: { equals: "dev" } }, kind: "never", action: "ask" }),
    ).toEqual({
      id: "p",
      status: "holds",
    });
  });

  it("decides under the configured mode, and reports the decision after it", () => {
    const deny = { tools: ["count"], where: { n: { min: 6 } }, kind: "never", action: "deny" } as const;
    expect(one(deny).status).toBe("fails");
    expect(one(deny, "observe")).toEqual({ id: "p", status: "holds" });
    expect(one({ ...deny, action: "allow" }, "observe")).toEqual({
      id: "p",
      status: "fails",
      witness: { tool: "count", arguments: { n: 6 }, context: { env: "dev" }, decision: "allow" },
    });
    const ask = { tools: ["count"], kind: "never", action: "ask" } as const;
    expect(one(ask).status).toBe("fails");
    expect(one(ask, "ci")).toEqual({ id: "p", status: "holds" });
  });

  it("fails on the first tool that fails, and names the tool of each unknown when there are several", () => {
    expect(one({ tools: ["pick", "count"], kind: "never", action: "deny" })).toEqual({
      id: "p",
      status: "fails",
      witness: { tool: "pick", arguments: { s: "y" }, context: { env: "dev" }, decision: "deny" },
    });
    expect(
      one({ tools: ["count", "nope"], where: { n: { min: 6 } }, kind: "never", action: "allow" }),
    ).toEqual({
      id: "p",
      status: "unknown",
      reason: "nope: tool nope is not declared",
    });
    expect(one({ tools: ["nope"], kind: "never", action: "allow" })).toEqual({
      id: "p",
      status: "unknown",
      reason: "tool nope is not declared",
    });
    expect(
      one({ tools: ["nope", "pick", "count"], where: { n: { min: 6 } }, kind: "never", action: "deny" }),
    ).toEqual({
      id: "p",
      status: "fails",
      witness: { tool: "count", arguments: { n: 6 }, context: { env: "dev" }, decision: "deny" },
    });
    expect(one({ tools: ["nope", "strict"], kind: "never", action: "allow" }).reason).toBe(
      "nope: tool nope is not declared; strict: 1 call(s) the engine found were not confirmed by the controller",
    );
    expect(
      one({ tools: ["count", "pick"], context: { env: { equals: "dev" } }, kind: "never", action: "ask" }),
    ).toEqual({
      id: "p",
      status: "holds",
    });
  });

  it("keeps a property's source, and gives none when it has none", () => {
    const source = { file: "properties.yaml", line: 3 } as never;
    const [withSource, without] = verifier().verify([
      { id: "a", tools: ["pick"], kind: "always", action: "allow", source },
      { id: "b", tools: ["nope"], kind: "always", action: "allow" },
    ]);
    expect(withSource).toStrictEqual({
      id: "a",
      source,
      status: "fails",
      witness: { tool: "pick", arguments: { s: "y" }, context: { env: "dev" }, decision: "deny" },
    });
    expect(without).toStrictEqual({ id: "b", status: "unknown", reason: "tool nope is not declared" });
  });

  it("says unknown when the calls it builds are not valid calls, and when only calls it cannot build may break it", () => {
    // Every call of `strict` fails its schema (minProperties): the controller confirms none.
    expect(one({ tools: ["strict"], kind: "never", action: "allow" })).toEqual({
      id: "p",
      status: "unknown",
      reason: "1 call(s) the engine found were not confirmed by the controller",
    });
    // Objects other than { k: v } are not enumerated: one of them may be allowed, as far as the engine knows.
    expect(
      one({
        tools: ["store"],
        where: { o: { not: { equals: { k: "v" } } } },
        kind: "never",
        action: "allow",
      }),
    ).toEqual({
      id: "p",
      status: "unknown",
      reason: "no witness found, but a call may break it: o: the contents of objects are not enumerated",
    });
  });

  it("answers properties given one by one to the same verifier as it answers them together", () => {
    const properties: Property[] = [
      { id: "a", tools: ["count"], where: { n: { min: 6 } }, kind: "never", action: "allow" },
      { id: "b", tools: ["count"], where: { n: { min: 3 } }, kind: "never", action: "allow" },
      {
        id: "c",
        tools: ["count"],
        where: { n: { max: 2 } },
        context: { env: { equals: "dev" } },
        kind: "always",
        action: "allow",
      },
      { id: "d", tools: ["pick"], where: { s: { equals: "y" } }, kind: "never", action: "allow" },
    ];
    const together = verifier().verify(properties);
    const v = verifier();
    const apart = properties.flatMap((p) => v.verify([p]));
    expect(apart).toEqual(together);
    expect(together.map((r) => r.status)).toEqual(["holds", "fails", "holds", "holds"]);
    expect(together[1]?.witness?.arguments).toEqual({ n: 3 });
  });
});

describe("partsDecide on nested and unusual fields", () => {
  const nested = {
    type: "object",
    properties: {
      opts: {
        type: "object",
        properties: {
          command: { type: "string", maxLength: 40, description: "what to run" },
          cwd: { type: "string" },
        },
      },
    },
  };
  const property = (where?: unknown): Property => ({
    id: "p",
    tools: ["t"],
    kind: "never",
    action: "allow",
    ...(where === undefined ? {} : { where: where as never }),
  });
  const paths = [["opts", "command"]];

  it("follows the field through the properties of its parents", () => {
    expect(partsDecide(property(), nested, paths)).toBe(true);
    expect(partsDecide(property({ "opts.command": { command: ["rm"] } }), nested, paths)).toBe(true);
    expect(partsDecide(property({ "opts.command": { not: { command: ["rm"] } } }), nested, paths)).toBe(true);
    expect(partsDecide(property({ "opts.command": { prefix: "rm" } }), nested, paths)).toBe(true);
    expect(partsDecide(property({ "opts.command": { prefix: "2" } }), nested, paths)).toBe(false);
    expect(partsDecide(property({ "opts.cwd": { equals: "a" } }), nested, paths)).toBe(true);
    // A condition on the object that holds the field would see a part in place of the whole.
    expect(partsDecide(property({ opts: { exists: true } }), nested, paths)).toBe(false);
    expect(partsDecide(property({ "opts.command.x": { exists: true } }), nested, paths)).toBe(true);
  });

  it("refuses a field its schema does not declare, or declares as something other than a schema object", () => {
    expect(partsDecide(property(), nested, [["opts", "other"]])).toBe(false);
    expect(partsDecide(property(), nested, [["nope", "command"]])).toBe(false);
    expect(partsDecide(property(), { type: "object" }, [["command"]])).toBe(false);
    expect(
      partsDecide(property(), { type: "object", properties: { command: true } } as never, [["command"]]),
    ).toBe(false);
    expect(
      partsDecide(property(), { type: "object", properties: { command: null } } as never, [["command"]]),
    ).toBe(false);
    expect(
      partsDecide(
        property(),
        { type: "object", properties: { opts: { type: "object", properties: null } } } as never,
        paths,
      ),
    ).toBe(false);
    // An inherited name is not a declared property.
    expect(partsDecide(property(), { type: "object", properties: {} }, [["toString"]])).toBe(false);
  });

  it("refuses operators that are not one command operator or the negation of one", () => {
    const flat = { type: "object", properties: { command: { type: "string" } } };
    const on = (operators: unknown) => partsDecide(property({ command: operators }), flat, [["command"]]);
    expect(on({ command: ["ls"] })).toBe(true);
    expect(on({ not: { command: ["ls"] } })).toBe(true);
    expect(on(null)).toBe(false);
    expect(on("ls")).toBe(false);
    expect(on({})).toBe(false);
    expect(on({ not: null })).toBe(false);
    expect(on({ not: "ls" })).toBe(false);
    expect(on({ not: {} })).toBe(false);
    expect(on({ not: { prefix: "ls" } })).toBe(false);
    expect(on({ not: { not: { command: ["ls"] } } })).toBe(false);
  });
});

describe("Verifier, properties decided on the parts of compound commands", () => {
  function shell(field: string, nested: boolean) {
    const name = nested ? "opts" : "command";
    const read = nested ? "opts.command" : "command";
    const { bundle, validators } = loadFromText(
      `tools:
  - name: shell
    description: Runs a command.
    input_schema:
      type: object
      properties:
        ${name}: ${field}
      required: [${name}]
      additionalProperties: false
`,
      `version: 1
rules:
  - id: ls
    tools: [shell]
    decision: allow
    when:
      ${read}: { regex: "^ls$" }
    reason: ls is fine.
  - id: rm
    tools: [shell]
    decision: deny
    when:
      ${read}: { command: ["rm"] }
    reason: no rm.
`,
    );
    return { verifier: new Verifier(bundle, validators), read };
  }

  it("drops the field's length bounds for the parts: a part may be shorter than any valid whole command", () => {
    for (const [field, nested] of [
      ["{ type: string, minLength: 5 }", false],
      [
        "{ type: object, properties: { command: { type: string, minLength: 5 } }, required: [command] }",
        true,
      ],
    ] as const) {
      const { verifier, read } = shell(field, nested);
      // `ls && ls` is a valid call the runtime allows part by part; `ls` alone is too short to be a call, so the
      // part found is written twice, joined (`ls | ls`), and that call is the witness.
      const [some, any, rm] = verifier.verify([
        { id: "a", tools: ["shell"], where: { [read]: { command: ["ls"] } }, kind: "never", action: "allow" },
        { id: "b", tools: ["shell"], kind: "never", action: "allow" },
        { id: "c", tools: ["shell"], where: { [read]: { command: ["rm"] } }, kind: "always", action: "deny" },
      ]);
      const joined = nested ? { opts: { command: "ls | ls" } } : { command: "ls | ls" };
      const witness = { tool: "shell", arguments: joined, context: {}, decision: "allow" };
      expect(some).toEqual({ id: "a", status: "fails", witness });
      expect(any).toEqual({ id: "b", status: "fails", witness });
      expect(rm).toEqual({ id: "c", status: "holds" });
    }
  });

  it("finds the part itself when it is a valid call", () => {
    const { verifier } = shell("{ type: string, maxLength: 2 }", false);
    expect(verifier.verify([{ id: "b", tools: ["shell"], kind: "never", action: "allow" }])).toEqual([
      {
        id: "b",
        status: "fails",
        witness: { tool: "shell", arguments: { command: "ls" }, context: {}, decision: "allow" },
      },
    ]);
  });
});

describe("Verifier on a shell policy's line starts", () => {
  const { bundle, validators } = loadFromText(
    `tools:
  - name: shell
    description: Runs a command.
    input_schema:
      type: object
      properties:
        command: { type: string }
      required: [command]
      additionalProperties: false
`,
    `version: 1
otherwise:
  shell: { decision: ask, reason: a person looks }
rules:
  - id: safe
    tools: [shell]
    decision: allow
    when:
      command:
        command: ["git status", "ls", { prefix: "git log", options: ["--oneline", "-n"] }]
    reason: read-only
  - id: tests
    tools: [shell]
    decision: allow
    when:
      command: { regex: "^npm test$" }
    reason: the test suite
`,
  );
  const verifier = new Verifier(bundle, validators);
  const verify = (regex: string) =>
    verifier.verify([
      { id: regex, tools: ["shell"], where: { command: { regex } }, kind: "never", action: "allow" },
    ])[0];

  it("proves what no allowed line starts with, alternatives and blanks of any kind included", () => {
    for (const regex of [
      "^git (push|commit)",
      "^git\\s+(push|commit)\\b",
      "^npm (install|i|ci)\\b",
      "^(curl|wget)\\s",
      "^(rm|mv|cp) ",
      "^git (reset|clean|checkout)",
    ])
      expect(verify(regex), regex).toEqual({ id: regex, status: "holds" });
  });

  it("finds an allowed line a pattern read by its start selects, an option made an operand after `--` too", () => {
    expect(verify("^git log.* -p")).toEqual({
      id: "^git log.* -p",
      status: "fails",
      witness: { tool: "shell", arguments: { command: "git log -- -p" }, context: {}, decision: "allow" },
    });
    expect(verify("^(ls|pwd)\\s+-l")).toMatchObject({ status: "fails", witness: { decision: "allow" } });
    expect(verify("^npm test$")).toMatchObject({
      status: "fails",
      witness: { arguments: { command: "npm test" } },
    });
  });
});

describe("decisionOnly", () => {
  it("decides as the policy does and refuses to run a tool's handler", async () => {
    const { bundle, validators } = loadFromText(TOOLS, POLICY, CONTEXT);
    const controller = decisionOnly(bundle, validators);
    const explained = controller.explain(
      { callId: "c", toolName: "pick", arguments: { s: "x" } },
      { env: "dev" },
    );
    expect("decision" in explained && explained.decision.action).toBe("allow");
    await expect(
      controller.handle({ callId: "c", toolName: "pick", arguments: { s: "x" } }, { env: "dev" }),
    ).rejects.toThrow(new InternalError("verification never runs handlers"));
  });
});

describe("ToolQuestion, searchPriority and searchOrder", () => {
  const SCHEMA = {
    type: "object",
    properties: {
      s: { type: "string" },
      e: { type: "string", enum: ["a", "b"] },
      f: { type: "string", enum: ["c", "d"] },
    },
    required: ["e", "f"],
    additionalProperties: false,
  } as const;
  const at = (question: ToolQuestion, key: string, operator: string, value: unknown) =>
    question.table.atom({ scope: "arguments", path: [key], key: `arguments:${key}` }, operator, value);

  it("orders a field's atoms by priority, then by id, and puts fields with few options first", () => {
    const question = new ToolQuestion([SCHEMA], [null]);
    // The optional string field `s` is made first: it has strings, so it still comes after the enums.
    const s0 = at(question, "s", "prefix", "a");
    const s1 = at(question, "s", "prefix", "b");
    const s2 = at(question, "s", "prefix", "c");
    const s3 = at(question, "s", "prefix", "d");
    const e = at(question, "e", "equals", "a");
    const f = at(question, "f", "equals", "c");
    question.buildFields(
      new Map([
        [s2, 0],
        [s0, 5],
        [f, 1],
      ]),
    );
    expect(question.fields.map((d) => [d.ref.key, d.atoms.map((a) => a.id)])).toEqual([
      ["arguments:f", [f]],
      ["arguments:e", [e]],
      ["arguments:s", [s2, s0, s1, s3]],
    ]);
    const plain = new ToolQuestion([SCHEMA], [null]);
    at(plain, "s", "prefix", "a");
    at(plain, "e", "equals", "a");
    at(plain, "f", "equals", "c");
    plain.buildFields();
    expect(plain.fields.map((d) => d.ref.key)).toEqual(["arguments:e", "arguments:f", "arguments:s"]);
  });

  it("reads a context field's values from the context schema, not the arguments'", () => {
    const question = new ToolQuestion(
      [{ type: "object", properties: { env: { type: "integer" } } }],
      [{ type: "object", properties: { env: { type: "string", enum: ["dev", "prod"] } }, required: ["env"] }],
    );
    question.table.atom({ scope: "context", path: ["env"], key: "context:env" }, "equals", "prod");
    question.buildFields();
    expect(question.fields[0]?.options().map((o) => (o.kind === "value" ? o.value : o.kind))).toEqual([
      "dev",
      "prod",
    ]);
  });

  it("ranks the atoms of the given formulas first, then those of the strictest statements reading them", () => {
    const { bundle } = loadFromText(
      `tools:
  - name: t
    description: T.
    input_schema:
      type: object
      properties: { n: { type: integer }, m: { type: integer }, k: { type: integer }, j: { type: integer } }
      additionalProperties: false
  - name: u
    description: U.
    input_schema:
      type: object
      properties: { n: { type: integer } }
      additionalProperties: false
`,
      `version: 1
rules:
  - { id: a, tools: [t], decision: allow, when: { n: { max: 5 } }, reason: a. }
  - { id: b, tools: [t], decision: ask, when: { m: { max: 5 } }, reason: b. }
  - { id: c, tools: [t], decision: deny, when: { k: { max: 5 } }, reason: c. }
  - { id: d, tools: [u], decision: deny, when: { n: { max: 5 } }, reason: d. }
`,
    );
    const table = new AtomTable();
    const t = new ToolDecision(table, "t", bundle.statements, bundle.mode);
    const u = new ToolDecision(table, "u", bundle.statements, bundle.mode);
    const id = (key: string) =>
      table.atom({ scope: "arguments", path: [key], key: `arguments:${key}` }, "max", 5);
    const [n, m, k] = [id("n"), id("m"), id("k")];
    const j = table.atom({ scope: "arguments", path: ["j"], key: "arguments:j" }, "min", 1);
    // deny 1, ask 2, allow 3; an atom read by several statements takes the strictest.
    expect(searchPriority([], [t])).toEqual(
      new Map([
        [n, 3],
        [m, 2],
        [k, 1],
      ]),
    );
    expect(searchPriority([], [t, u]).get(n)).toBe(1);
    expect(searchPriority([], [u, t]).get(n)).toBe(1);
    const first: Formula = {
      kind: "and",
      of: [
        { kind: "atom", atom: k },
        { kind: "atom", atom: j },
      ],
    };
    expect(searchPriority([first], [t])).toEqual(
      new Map([
        [n, 3],
        [m, 2],
        [k, 0],
        [j, 0],
      ]),
    );
  });

  it("orders each field's relevant atoms by priority, then by id, and leaves the others out", () => {
    const question = new ToolQuestion([SCHEMA], [null]);
    const s = [0, 1, 2, 3, 4].map((i) => at(question, "s", "prefix", `p${i}`)) as number[];
    const e = at(question, "e", "equals", "a");
    question.buildFields();
    const [s0, s1, s2, s3, s4] = s as [number, number, number, number, number];
    const order = searchOrder(
      question.fields,
      new Set([s0, s2, s3, s4]),
      new Map([
        [s3, 0],
        [s2, 1],
        [e, 0],
      ]),
    );
    // Indices in the field's atoms (made in id order): s1 is not relevant, s0 and s4 have no priority.
    expect(s1).toBe(s0 + 1);
    expect(order).toEqual(
      new Map([
        ["arguments:e", []],
        ["arguments:s", [3, 2, 0, 4]],
      ]),
    );
  });
  it("orders by id the relevant atoms that have no priority, whatever their order in the field", () => {
    const question = new ToolQuestion([SCHEMA], [null]);
    const [s0, s1, s2, s3] = [0, 1, 2, 3].map((i) => at(question, "s", "prefix", `p${i}`)) as [
      number,
      number,
      number,
      number,
    ];
    question.buildFields(new Map([[s3, 0]]));
    expect(question.fields[0]?.atoms.map((a) => a.id)).toEqual([s3, s0, s1, s2]);
    // Indices in the field: s3 is 0, s0 1, s1 2, s2 3.
    expect(searchOrder(question.fields, new Set([s0, s1, s2, s3]), new Map())).toEqual(
      new Map([["arguments:s", [1, 2, 3, 0]]]),
    );
  });

  it("builds a call from a model's concrete values, skipping the fields it has none for", () => {
    const question = new ToolQuestion([SCHEMA], [null]);
    const s = at(question, "s", "prefix", "a");
    const e = at(question, "e", "equals", "b");
    at(question, "f", "equals", "c");
    question.buildFields();
    const model = {
      masks: Uint8Array.from([2, 2, 1]),
      values: new Map([
        ["arguments:s", { value: "ab" }],
        ["arguments:e", { value: "b" }],
      ]),
      loose: 0,
      abstract: new Map([["arguments:f", "no value of it was built"]]),
    };
    expect([s, e]).toEqual([0, 1]);
    // f has no value in the model: the schema's required fields fill it.
    const call = callOf(model, question.fields, SCHEMA, null);
    expect(call.arguments.s).toBe("ab");
    expect(call.arguments.e).toBe("b");
    expect(Object.keys(call.arguments).sort()).toEqual(["e", "f", "s"]);
    expect(call.context).toEqual({});
  });
});

describe("partsDecide, the properties and fields it takes", () => {
  const flat = { type: "object", properties: { command: { type: "string" } } };
  const property = (
    kind: "never" | "always",
    action: "allow" | "ask" | "deny",
    where?: unknown,
  ): Property => ({
    id: "p",
    tools: ["t"],
    kind,
    action,
    ...(where === undefined ? {} : { where: where as never }),
  });

  it("takes never allow and always deny, and no other kind of property", () => {
    const on = (kind: "never" | "always", action: "allow" | "ask" | "deny") =>
      partsDecide(property(kind, action), flat, [["command"]]);
    expect(on("never", "allow")).toBe(true);
    expect(on("always", "deny")).toBe(true);
    expect(on("never", "deny")).toBe(false);
    expect(on("never", "ask")).toBe(false);
    expect(on("always", "allow")).toBe(false);
    expect(on("always", "ask")).toBe(false);
  });

  it("takes exactly one command field, whose schema says nothing of its text but its length", () => {
    const p = property("never", "allow");
    expect(partsDecide(p, flat, [])).toBe(false);
    const two = { type: "object", properties: { command: { type: "string" }, other: { type: "string" } } };
    expect(partsDecide(p, two, [["command"], ["other"]])).toBe(false);
    const schema = (field: unknown) => ({ type: "object", properties: { command: field } }) as never;
    expect(
      partsDecide(p, schema({ type: "string", minLength: 1, maxLength: 9, title: "t" }), [["command"]]),
    ).toBe(true);
    expect(partsDecide(p, schema({ type: "string", pattern: "^[a-z ]*$" }), [["command"]])).toBe(false);
    expect(partsDecide(p, schema({ type: "string", enum: ["ls"] }), [["command"]])).toBe(false);
    // A name on the prototype of every object is not a declared property.
    expect(partsDecide(p, { type: "object", properties: {} }, [["__proto__"]])).toBe(false);
    // A parent that is not a schema object declares nothing below it.
    expect(
      partsDecide(p, { type: "object", properties: { opts: null } } as never, [["opts", "command"]]),
    ).toBe(false);
  });

  it("refuses a condition on any object that holds the field, and only on those", () => {
    const deep = {
      type: "object",
      properties: {
        a: { type: "object", properties: { b: { type: "object", properties: { c: { type: "string" } } } } },
      },
    };
    const on = (where: unknown) => partsDecide(property("never", "allow", where), deep, [["a", "b", "c"]]);
    expect(on({ "a.b.c": { command: ["ls"] } })).toBe(true);
    expect(on({ a: { exists: true } })).toBe(false);
    expect(on({ "a.b": { exists: true } })).toBe(false);
    // Objects beside the field's parents.
    expect(on({ x: { exists: true } })).toBe(true);
    expect(on({ "a.x": { exists: true } })).toBe(true);
  });

  it("refuses operators with more than one key, inside or outside a not", () => {
    const on = (operators: unknown) =>
      partsDecide(property("never", "allow", { command: operators }), flat, [["command"]]);
    expect(on({ command: ["ls"], prefix: "ls" })).toBe(false);
    expect(on({ not: { command: ["ls"], prefix: "ls" } })).toBe(false);
    expect(on({ not: "c" })).toBe(false);
  });
});

describe("Verifier, the calls it counts and the context it selects", () => {
  it("counts each call the controller did not confirm, and stops at the first settled call", () => {
    const v = verifier();
    // `strict` allows every call, and no call of it is valid: the engine's calls are never confirmed.
    const [some, settled, always] = v.verify([
      // n 0 and n 1 are selected: two calls.
      { id: "some", tools: ["strict"], where: { n: { max: 1 } }, kind: "never", action: "allow" },
      // Every call is selected and allowed: the first settles it, whatever n is.
      { id: "settled", tools: ["strict"], kind: "never", action: "allow" },
      { id: "always", tools: ["strict"], kind: "always", action: "deny" },
    ]);
    const unconfirmed = (n: number) => `${n} call(s) the engine found were not confirmed by the controller`;
    expect(some).toEqual({ id: "some", status: "unknown", reason: unconfirmed(2) });
    expect(settled).toEqual({ id: "settled", status: "unknown", reason: unconfirmed(1) });
    expect(always).toEqual({ id: "always", status: "unknown", reason: unconfirmed(1) });
  });

  it("selects the witness's context by a condition that excludes a value", () => {
    // Only prod is not dev: n 6 is then asked, not denied.
    expect(
      one({ tools: ["count"], context: { env: { not: { equals: "dev" } } }, kind: "never", action: "deny" }),
    ).toEqual({ id: "p", status: "holds" });
    expect(
      one({ tools: ["count"], context: { env: { not: { equals: "dev" } } }, kind: "never", action: "ask" }),
    ).toEqual({
      id: "p",
      status: "fails",
      witness: { tool: "count", arguments: { n: 0 }, context: { env: "prod" }, decision: "ask" },
    });
  });

  it("builds a witness from a context condition alone, with that context", () => {
    const { bundle, validators } = loadFromText(
      `tools:
  - name: open
    description: Takes nothing.
    input_schema: { type: object, properties: {}, additionalProperties: false }
`,
      `version: 1
rules:
  - { id: open, tools: [open], decision: allow, reason: open. }
`,
      CONTEXT,
    );
    const [result] = new Verifier(bundle, validators).verify([
      { id: "p", tools: ["open"], context: { env: { equals: "prod" } }, kind: "never", action: "allow" },
    ]);
    expect(result).toEqual({
      id: "p",
      status: "fails",
      witness: { tool: "open", arguments: {}, context: { env: "prod" }, decision: "allow" },
    });
  });

  it("leaves a field the witness does not need out of its arguments", () => {
    const { bundle, validators } = loadFromText(
      `tools:
  - name: opt
    description: An optional field.
    input_schema:
      type: object
      properties: { m: { type: string, enum: [a, b] } }
      additionalProperties: false
`,
      `version: 1
rules:
  - { id: b, tools: [opt], decision: deny, when: { m: { equals: b } }, reason: not b. }
  - { id: rest, tools: [opt], decision: allow, reason: the rest. }
`,
    );
    const [result] = new Verifier(bundle, validators).verify([
      { id: "p", tools: ["opt"], kind: "never", action: "allow" },
    ]);
    expect(result).toStrictEqual({
      id: "p",
      status: "fails",
      witness: { tool: "opt", arguments: {}, context: {}, decision: "allow" },
    });
  });

  it("answers a property given to verifyOne alone as verify does", () => {
    const property: Property = {
      id: "p",
      tools: ["count"],
      where: { n: { min: 3 } },
      kind: "never",
      action: "allow",
    };
    expect(verifier().verifyOne(property)).toEqual(verifier().verify([property])[0]);
    expect(verifier().verifyOne(property)).toEqual({
      id: "p",
      status: "fails",
      witness: { tool: "count", arguments: { n: 3 }, context: { env: "dev" }, decision: "allow" },
    });
  });

  it("joins the reasons of every field it could not build", () => {
    const { bundle, validators } = loadFromText(
      `tools:
  - name: two
    description: Two objects.
    input_schema:
      type: object
      properties: { o: { type: object }, q: { type: object } }
      required: [o, q]
      additionalProperties: false
`,
      `version: 1
rules:
  - { id: k, tools: [two], decision: allow, when: { o: { equals: { k: v } }, q: { equals: { k: v } } }, reason: k. }
`,
    );
    const [result] = new Verifier(bundle, validators).verify([
      {
        id: "p",
        tools: ["two"],
        where: { o: { not: { equals: { k: "v" } } }, q: { not: { equals: { k: "v" } } } },
        kind: "never",
        action: "allow",
      },
    ]);
    expect(result).toEqual({
      id: "p",
      status: "unknown",
      reason:
        "no witness found, but a call may break it: o: the contents of objects are not enumerated; q: the contents of objects are not enumerated",
    });
  });
  it("names a context field with its scope in a reason, even one whose name contains arguments:", () => {
    const { bundle, validators } = loadFromText(
      `tools:
  - name: open
    description: Takes nothing.
    input_schema: { type: object, properties: {}, additionalProperties: false }
`,
      `version: 1
rules:
  - { id: k, tools: [open], decision: allow, context: { "arguments:o": { equals: { k: v } } }, reason: k. }
`,
      `context_schema:
  type: object
  properties: { "arguments:o": { type: object } }
  required: ["arguments:o"]
  additionalProperties: false
`,
    );
    const [result] = new Verifier(bundle, validators).verify([
      {
        id: "p",
        tools: ["open"],
        context: { "arguments:o": { not: { equals: { k: "v" } } } },
        kind: "never",
        action: "allow",
      },
    ]);
    expect(result).toEqual({
      id: "p",
      status: "unknown",
      reason:
        "no witness found, but a call may break it: context:arguments:o: the contents of objects are not enumerated",
    });
  });
});

describe("Verifier, command tools beside others", () => {
  const SHELL_POLICY = `version: 1
rules:
  - { id: ls, tools: [shell], decision: allow, when: { command: { regex: "^ls$" } }, reason: ls is fine. }
  - { id: rm, tools: [shell], decision: deny, when: { command: { command: ["rm"] } }, reason: no rm. }
`;
  const shellTool = (name: string, field: string) => `  - name: ${name}
    description: Runs a command.
    input_schema:
      type: object
      properties: { command: ${field} }
      required: [command]
      additionalProperties: false
`;

  it("keeps the length bounds of a command field for a property not decided on parts", () => {
    const { bundle, validators } = loadFromText(
      `tools:\n${shellTool("shell", "{ type: string, minLength: 5, maxLength: 40 }")}`,
      SHELL_POLICY,
    );
    const [result] = new Verifier(bundle, validators).verify([
      { id: "p", tools: ["shell"], where: { command: { command: ["rm"] } }, kind: "never", action: "deny" },
    ]);
    expect(result).toEqual({
      id: "p",
      status: "fails",
      witness: { tool: "shell", arguments: { command: "rm a a" }, context: {}, decision: "deny" },
    });
  });

  it("decides each tool's parts with that tool's own schema and statements", () => {
    const { bundle, validators } = loadFromText(
      `tools:
  - name: other
    description: Not a command.
    input_schema: { type: object, properties: { n: { type: integer } }, additionalProperties: false }
${shellTool("copy", "{ type: string, maxLength: 2 }")}${shellTool("shell", "{ type: string, maxLength: 2 }")}`,
      `${SHELL_POLICY}  - { id: cp, tools: [copy], decision: deny, when: { command: { command: ["cp"] } }, reason: no cp. }
`,
    );
    // `copy` allows nothing (default deny), `shell` allows `ls`.
    const results = new Verifier(bundle, validators).verify([
      { id: "copy", tools: ["copy"], kind: "never", action: "allow" },
      { id: "both", tools: ["copy", "shell"], kind: "never", action: "allow" },
      { id: "shell", tools: ["shell"], kind: "never", action: "allow" },
    ]);
    const ls = { tool: "shell", arguments: { command: "ls" }, context: {}, decision: "allow" };
    expect(results).toEqual([
      { id: "copy", status: "holds" },
      { id: "both", status: "fails", witness: ls },
      { id: "shell", status: "fails", witness: ls },
    ]);
  });
});

describe("Verifier, past the engine's bounds", () => {
  it("says a tool whose automata pass the engine's bound is too large to decide, and still answers the others", () => {
    // Five counters of `a` (modulo 7, 11, 13, 17 and 19): their product has 323,323 states.
    const counter = (m: number) => `^(?:(?:[^a]*a){${m}})*[^a]*$`;
    const { bundle, validators } = loadFromText(
      `${TOOLS}  - name: t
    description: T.
    input_schema: { type: object, properties: { p: { type: string, maxLength: 12 } }, required: [p], additionalProperties: false }
`,
      `${POLICY}${[7, 11, 13, 17, 19]
        .map(
          (m) =>
            `  - { id: c${m}, tools: [t], decision: deny, when: { p: { regex: "${counter(m)}" } }, reason: r. }\n`,
        )
        .join("")}  - { id: u, tools: [t], decision: ask, when: { p: { prefix: "a" } }, reason: u. }
`,
      CONTEXT,
    );
    const [result] = new Verifier(bundle, validators).verify([
      { id: "p", tools: ["t", "pick"], kind: "never", action: "ask" },
    ]);
    expect(result).toEqual({
      id: "p",
      status: "unknown",
      reason: "t: too large to decide here (an automaton has more than 20000 states)",
    });
  });

  it("tries strings of each operator's language where the field's automata pass the bound: a witness, never a proof", () => {
    const tools = `tools:
  - name: sql
    description: Runs a query.
    input_schema: { type: object, properties: { query: { type: string, minLength: 1, maxLength: 200 } }, required: [query], additionalProperties: false }
`;
    const policy = (deny: string) => `version: 1
otherwise: { sql: deny }
rules:
  - { id: shape, tools: [sql], decision: allow, when: { query: { regex: "^drop [a-z ]*table$" } }, reason: r. }
  - { id: window, tools: [sql], decision: deny, when: { query: { regex: "${deny}" } }, reason: r. }
`;
    const run = (deny: string) => {
      const { bundle, validators } = loadFromText(tools, policy(deny));
      return new Verifier(bundle, validators).verify([
        { id: "p", tools: ["sql"], where: { query: { regex: "drop" } }, kind: "never", action: "allow" },
      ])[0];
    };
    // The longest allowed shape has `table` past the window.
    const result = run("drop.{0,46}table");
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const query = (result?.witness?.arguments as { query?: string } | undefined)?.query ?? "";
    expect(query).toMatch(/^drop [a-z ]*table$/);
    expect(query).not.toMatch(/drop.{0,46}table/);
    // A window as long as the field: no string breaks it, and the engine cannot show that.
    expect(run("drop.{0,195}table")?.status).toBe("unknown");
  });

  it("does not hide an error other than the engine's bound as unknown", () => {
    const { bundle, validators } = loadFromText(TOOLS, POLICY, CONTEXT);
    const failing = new Map(validators);
    failing.set("count", (() => {
      throw new Error("a validator failed");
    }) as never);
    expect(() =>
      new Verifier(bundle, failing).verify([{ id: "p", tools: ["count"], kind: "never", action: "allow" }]),
    ).toThrow("a validator failed");
  });
});

describe("Verifier, properties verified together", () => {
  const PATCH_TOOLS = `tools:
  - name: patch
    description: Applies a patch to some files.
    input_schema:
      type: object
      properties:
        files: { type: array, items: { type: string, minLength: 1, maxLength: 64 }, maxItems: 20 }
      required: []
      additionalProperties: false
`;
  const PATCH_POLICY = `version: 1
otherwise: { patch: ask }
rules:
  - id: sources
    tools: [patch]
    decision: allow
    when:
      files:
        all: { glob: ["src/**/*.ts", "test/**/*.test.ts"] }
        not: { any: { glob: "**/generated/**" } }
    reason: source edits.
  - id: workflows
    tools: [patch]
    decision: deny
    when: { files: { any: { glob: "**/.github/workflows/**" } } }
    reason: CI is changed by people.
`;
  const missing: Property = {
    id: "missing",
    tools: ["patch"],
    where: { files: { exists: false } },
    kind: "never",
    action: "allow",
  };
  // Each reads the files' elements with operators of its own: together, more than an array field enumerates.
  const others: Property[] = ["\\.js$", "\\.md$", "^docs/", "^lib/", "\\.json$", "^vendor/"].map(
    (pattern, i) => ({
      id: `other-${i}`,
      tools: ["patch"],
      where: { files: { any: { regex: pattern } } },
      kind: "never",
      action: "allow",
    }),
  );

  it("answers a property as it does alone, whatever the other properties of the run read", () => {
    const { bundle, validators } = loadFromText(PATCH_TOOLS, PATCH_POLICY);
    const alone = new Verifier(bundle, validators).verify([missing]);
    expect(alone).toEqual([{ id: "missing", status: "holds" }]);
    const together = new Verifier(bundle, validators).verify([missing, ...others]);
    expect(together[0]).toEqual({ id: "missing", status: "holds" });
    for (const [i, result] of together.slice(1).entries()) {
      expect(result).toEqual(new Verifier(bundle, validators).verify([others[i] as Property])[0]);
    }
  });
});

describe("Verifier, an object field and a field inside it", () => {
  const TOOL = `tools:
  - name: store
    description: Stores.
    input_schema:
      type: object
      properties:
        o: { type: object, properties: { k: { type: string, enum: [x, y] } }, required: [k], additionalProperties: false }
      required: [o]
      additionalProperties: false
`;

  it("confirms no call whose inner field undoes the object's value, and changes no literal of the policy", () => {
    // The engine reads `o` and `o.k` as two fields: a model may give `o` the policy's { k: y } and `o.k` x, which
    // no call has at once. The call built from it has o.k x: the controller and the property's condition decide it.
    for (const [rule, where] of [
      ["{ o: { equals: { k: y } } }", { "o.k": { equals: "x" } }],
      ["{ o.k: { equals: x } }", { o: { equals: { k: "y" } } }],
    ] as const) {
      const { bundle, validators } = loadFromText(
        TOOL,
        `version: 1\nrules:\n  - { id: a, tools: [store], decision: allow, when: ${rule}, reason: a. }\n`,
      );
      const results = new Verifier(bundle, validators).verify([
        { id: "never", tools: ["store"], where: where as never, kind: "never", action: "allow" },
        { id: "always", tools: ["store"], where: where as never, kind: "always", action: "deny" },
      ]);
      const unconfirmed = "1 call(s) the engine found were not confirmed by the controller";
      expect(results).toEqual([
        { id: "never", status: "unknown", reason: unconfirmed },
        { id: "always", status: "unknown", reason: unconfirmed },
      ]);
    }
  });

  it("confirms no call the property's own condition does not select, whatever the controller decides", () => {
    // The policy reads `o` first: the built call's o.k (x, for the allow statement) replaces the { k: y } the
    // property selects, so the controller would allow a call the property does not select.
    const { bundle, validators } = loadFromText(
      TOOL,
      "version: 1\nrules:\n  - { id: a, tools: [store], decision: allow, when: { o: { exists: true }, o.k: { equals: x } }, reason: a. }\n",
    );
    const [result] = new Verifier(bundle, validators).verify([
      { id: "p", tools: ["store"], where: { o: { equals: { k: "y" } } }, kind: "never", action: "allow" },
    ]);
    expect(result).toEqual({
      id: "p",
      status: "unknown",
      reason: "1 call(s) the engine found were not confirmed by the controller",
    });
  });
});

describe("Verifier on url rules whose properties the facts between url operators decide", () => {
  const FETCH = (schema: string) => `tools:
  - name: fetch
    description: Fetch a URL.
    input_schema:
      type: object
      properties:
        url: ${schema}
      required: [url]
      additionalProperties: false
`;
  const ANY_URL = "{ type: string, minLength: 8, maxLength: 2048 }";
  const verifyOn = (schema: string, policy: string, properties: Property[]): PropertyResult[] => {
    const { bundle, validators } = loadFromText(FETCH(schema), policy);
    return new Verifier(bundle, validators).verify(properties);
  };

  it("finds an allowed URL that puts the text a regex needs in the path the rule reads", () => {
    const [result] = verifyOn(
      ANY_URL,
      `version: 1
rules:
  - { id: docs, tools: [fetch], decision: allow, when: { url: { url: { host: [example.com], path: ["/docs/**"] } } }, reason: docs. }
`,
      [{ id: "at", tools: ["fetch"], where: { url: { regex: "@" } }, kind: "never", action: "allow" }],
    );
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    expect(result?.witness?.arguments).toEqual({ url: "https://example.com/docs/@" });
  });

  it("proves that paths whose globs' texts do not meet are never allowed by a rule on another path", () => {
    const results = verifyOn(
      ANY_URL,
      `version: 1
otherwise: { fetch: ask }
rules:
  - { id: docs, tools: [fetch], decision: allow, when: { url: { url: { path: ["/docs/**"] } } }, reason: docs. }
`,
      [
        {
          id: "root",
          tools: ["fetch"],
          where: { url: { url: { path: "/" } } },
          kind: "never",
          action: "allow",
        },
        {
          id: "api",
          tools: ["fetch"],
          where: { url: { url: { path: "/api/**" } } },
          kind: "never",
          action: "allow",
        },
        // A glob that differs only in case may be a maybe where the rule is certain: not proved.
        {
          id: "case",
          tools: ["fetch"],
          where: { url: { url: { path: "/DOCS/a" } } },
          kind: "never",
          action: "allow",
        },
      ],
    );
    expect(results.map((r) => r.status)).toEqual(["holds", "holds", "fails"]);
  });

  it("proves the scheme of every URL a host rule allows when the schema fixes how it is written", () => {
    const results = verifyOn(
      '{ type: string, maxLength: 512, pattern: "^https://" }',
      `version: 1
rules:
  - { id: slack, tools: [fetch], decision: allow, when: { url: { url: { host: [hooks.slack.com] } } }, reason: slack. }
`,
      [
        {
          id: "p",
          tools: ["fetch"],
          where: { url: { not: { url: { scheme: "https" } } } },
          kind: "never",
          action: "allow",
        },
        {
          id: "q",
          tools: ["fetch"],
          where: { url: { not: { url: { scheme: "http" } } } },
          kind: "never",
          action: "allow",
        },
      ],
    );
    expect(results[0]?.status, JSON.stringify(results[0])).toBe("holds");
    expect(results[1]?.status, JSON.stringify(results[1])).toBe("fails");
  });

  it("proves that a deny rule on an IPv4 address catches the IPv6 addresses that embed it", () => {
    const results = verifyOn(
      ANY_URL,
      `version: 1
otherwise: { fetch: allow }
rules:
  - { id: loopback, tools: [fetch], decision: deny, when: { url: { url: { host: [127.0.0.1] } } }, reason: loopback. }
`,
      [
        {
          id: "mapped",
          tools: ["fetch"],
          where: { url: { url: { host: "::ffff:127.0.0.1" } } },
          kind: "always",
          action: "deny",
        },
        {
          id: "6to4",
          tools: ["fetch"],
          where: { url: { url: { host: "2002:7f00:1::" } } },
          kind: "always",
          action: "deny",
        },
        // An IPv6 address that embeds another IPv4 address is not caught.
        {
          id: "other",
          tools: ["fetch"],
          where: { url: { url: { host: "::ffff:10.0.0.1" } } },
          kind: "always",
          action: "deny",
        },
      ],
    );
    expect(results.map((r) => r.status)).toEqual(["holds", "holds", "fails"]);
  });
});
