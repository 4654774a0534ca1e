/**
 * The Verifier (verify-properties.ts) on small policies whose every call is known: what each status says, the
 * witness it builds (arguments, the context's required fields, the decision after the mode), how properties over
 * several tools combine, and the reasons it gives when it cannot decide.
 */
import { describe, expect, it } from "vitest";
import { InternalError } from "../../src/runtime/errors.js";
import {
  decisionOnly,
  type Property,
  type PropertyResult,
  partsDecide,
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
    expect(partsDecide(property({ "opts.command": { prefix: "rm" } }), nested, paths)).toBe(false);
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
      // `ls && ls` is a valid call the runtime allows part by part; `ls` alone is too short to be a call.
      const [some, any, rm] = verifier.verify([
        { id: "a", tools: ["shell"], where: { [read]: { command: ["ls"] } }, kind: "never", action: "allow" },
        { id: "b", tools: ["shell"], kind: "never", action: "allow" },
        { id: "c", tools: ["shell"], where: { [read]: { command: ["rm"] } }, kind: "always", action: "deny" },
      ]);
      const unconfirmed = "1 call(s) the engine found were not confirmed by the controller";
      expect(some).toEqual({ id: "a", status: "unknown", reason: unconfirmed });
      expect(any).toEqual({ id: "b", status: "unknown", reason: unconfirmed });
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
