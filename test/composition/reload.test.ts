/**
 * A reload is whole: a new bundle brings its policy, tools, argument validators, visible specs, context
 * validator and audit redaction together, or nothing of it applies and the old configuration stays in force.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ControllerSetupError,
  createController,
  loadPolicy,
  MemoryAuditSink,
  reloadController,
  ToolgateError,
} from "toolgate";
import { describe, expect, it } from "vitest";
import { writeTree } from "../cli/cli-helpers.js";

const TOOLS = [
  "tools:",
  "  - name: write_note",
  "    description: Write a note.",
  "    input_schema:",
  "      type: object",
  "      properties: { text: { type: string }, secret: { type: string } }",
  "      required: [text]",
  "      additionalProperties: false",
  "  - name: erase_disk",
  "    description: Erase the disk.",
  "    input_schema: { type: object, additionalProperties: false }",
  "",
].join("\n");

const POLICY = "version: 1\nallow: [write_note]\ndeny: [erase_disk]\n";

const CONTEXT_SCHEMA = [
  "context_schema:",
  "  type: object",
  "  properties: { environment: { enum: [development, production] } }",
  "  required: [environment]",
  "  additionalProperties: false",
  "",
].join("\n");

function project(config: string): string {
  return writeTree({ "toolgate.config.yaml": config, "tools.yaml": TOOLS, "policy.yaml": POLICY });
}

function counting() {
  const runs: string[] = [];
  return {
    runs,
    handlers: {
      write_note: ({ text }: { text: string }) => {
        runs.push(text);
        return `wrote ${text}`;
      },
    },
  };
}

const call = (callId: string, args: Record<string, unknown> = { text: "hi", secret: "s3cret" }) => ({
  callId,
  toolName: "write_note",
  arguments: args,
});

describe("reloadController swaps the whole configuration", () => {
  it("a reload that adds context_schema checks the context from then on: a misspelt or missing fact runs nothing", async () => {
    const base = "tools: [tools.yaml]\npolicy: policy.yaml\n";
    const dir = project(base);
    const { runs, handlers } = counting();
    const controller = createController({ bundle: await loadPolicy({ cwd: dir }), handlers, cwd: dir });
    // Without a context_schema any facts are accepted.
    expect(await controller.handle(call("before"), { enviroment: "production" })).toMatchObject({
      isError: false,
    });
    expect(runs).toEqual(["hi"]);

    writeFileSync(join(dir, "toolgate.config.yaml"), base + CONTEXT_SCHEMA);
    reloadController(controller, await loadPolicy({ cwd: dir }), handlers);

    expect(await controller.handle(call("misspelt"), { enviroment: "production" })).toEqual({
      callId: "misspelt",
      content: expect.stringMatching(/^invalid context for write_note: /),
      isError: true,
    });
    expect(await controller.handle(call("missing"), {})).toEqual({
      callId: "missing",
      content: expect.stringMatching(/^invalid context for write_note: .*environment/),
      isError: true,
    });
    expect(controller.explain(call("explained"), { enviroment: "production" })).toMatchObject({
      isError: true,
    });
    expect(runs).toEqual(["hi"]);
    expect(await controller.handle(call("good"), { environment: "development" })).toMatchObject({
      isError: false,
    });
    expect(runs).toEqual(["hi", "hi"]);

    // A reload that removes it again stops checking.
    writeFileSync(join(dir, "toolgate.config.yaml"), base);
    reloadController(controller, await loadPolicy({ cwd: dir }), handlers);
    expect(await controller.handle(call("free"), { anything: 1 })).toMatchObject({ isError: false });
  });

  it("a reload that adds audit redaction redacts the next call's arguments", async () => {
    const base = "tools: [tools.yaml]\npolicy: policy.yaml\n";
    const dir = project(base);
    const audit = new MemoryAuditSink();
    const { handlers } = counting();
    const controller = createController({
      bundle: await loadPolicy({ cwd: dir }),
      handlers,
      audit,
      cwd: dir,
    });
    await controller.handle(call("plain"));
    writeFileSync(
      join(dir, "toolgate.config.yaml"),
      `${base}audit:\n  sink: jsonl:audit.jsonl\n  redact: { write_note: [secret] }\n`,
    );
    reloadController(controller, await loadPolicy({ cwd: dir }), handlers);
    await controller.handle(call("redacted"));
    const received = audit.events.filter((e) => e.type === "call.received");
    expect(received.map((e) => [e.callId, e.arguments])).toEqual([
      ["plain", { text: "hi", secret: "s3cret" }],
      ["redacted", { text: "hi", secret: "[redacted]" }],
    ]);
  });

  it("a reload swaps tools, argument validators and visible specs together with the policy", async () => {
    const dir = project("tools: [tools.yaml]\npolicy: policy.yaml\n");
    const { handlers } = counting();
    const controller = createController({ bundle: await loadPolicy({ cwd: dir }), handlers, cwd: dir });
    expect(controller.visibleSpecs().map((s) => s.name)).toEqual(["write_note"]);
    writeFileSync(
      join(dir, "tools.yaml"),
      TOOLS.replace("Write a note.", "Write a short note.").replace(
        "text: { type: string }",
        "text: { type: string, maxLength: 3 }",
      ),
    );
    writeFileSync(join(dir, "policy.yaml"), "version: 1\nallow: [write_note, erase_disk]\n");
    // erase_disk can now run but has no handler: the reload is refused as a whole.
    const next = await loadPolicy({ cwd: dir });
    expect(() => reloadController(controller, next, handlers)).toThrow(ControllerSetupError);
    expect(controller.visibleSpecs().map((s) => [s.name, s.description])).toEqual([
      ["write_note", "Write a note."],
    ]);
    expect(await controller.handle(call("long", { text: "long text" }))).toMatchObject({ isError: false });

    writeFileSync(join(dir, "policy.yaml"), POLICY);
    reloadController(controller, await loadPolicy({ cwd: dir }), handlers);
    expect(controller.visibleSpecs().map((s) => [s.name, s.description])).toEqual([
      ["write_note", "Write a short note."],
    ]);
    expect(await controller.handle(call("long", { text: "long text" }))).toMatchObject({
      isError: true,
      content: expect.stringContaining("/text"),
    });
  });

  it("a refused reload keeps the old context validator, redaction and policy in force", async () => {
    const base = "tools: [tools.yaml]\npolicy: policy.yaml\n";
    const dir = project(
      `${base}${CONTEXT_SCHEMA}audit:\n  sink: jsonl:audit.jsonl\n  redact: { write_note: [secret] }\n`,
    );
    const audit = new MemoryAuditSink();
    const { runs, handlers } = counting();
    const bundle = await loadPolicy({ cwd: dir });
    const controller = createController({ bundle, handlers, audit, cwd: dir });
    // The new configuration drops the context schema and the redaction, but also the handler fit.
    writeFileSync(join(dir, "toolgate.config.yaml"), `${base}audit:\n  sink: jsonl:audit.jsonl\n`);
    writeFileSync(join(dir, "policy.yaml"), "version: 1\nallow: [write_note, erase_disk]\n");
    const next = await loadPolicy({ cwd: dir });
    expect(() => reloadController(controller, next, handlers)).toThrow(/erase_disk/);
    expect(controller.policy.fingerprint).toBe(bundle.fingerprint);
    expect(await controller.handle(call("misspelt"), { enviroment: "development" })).toMatchObject({
      isError: true,
    });
    await controller.handle(call("ok"), { environment: "development" });
    expect(runs).toEqual(["hi"]);
    expect(audit.events.find((e) => e.callId === "ok" && e.type === "call.received")?.arguments).toEqual({
      text: "hi",
      secret: "[redacted]",
    });
  });

  it("a reload that moves the approval store or audit sink taken from the config is refused", async () => {
    const base = "tools: [tools.yaml]\npolicy: policy.yaml\n";
    const dir = project(`${base}approvals: memory\n`);
    const { handlers } = counting();
    const bundle = await loadPolicy({ cwd: dir });
    const controller = createController({ bundle, handlers, cwd: dir });
    writeFileSync(join(dir, "toolgate.config.yaml"), `${base}approvals: sqlite:state.db\n`);
    writeFileSync(join(dir, "policy.yaml"), "version: 1\nask: [write_note]\ndeny: [erase_disk]\n");
    let refused: unknown;
    try {
      reloadController(controller, await loadPolicy({ cwd: dir }), handlers);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ToolgateError);
    expect(refused).toMatchObject({
      code: "reload-refused",
      message:
        "approvals changed from memory to sqlite:state.db, but a running controller keeps its approval store (its pending requests live there); restore approvals or restart the application to switch",
    });
    expect(controller.policy.fingerprint).toBe(bundle.fingerprint);

    // An application that passed its own store is not bound to the config's setting.
    const own = createController({ bundle, handlers, approvals: "memory", cwd: dir });
    reloadController(own, await loadPolicy({ cwd: dir }), handlers);
    expect(own.policy.fingerprint).not.toBe(bundle.fingerprint);

    // Adding an audit sink to a controller created without one is a move too.
    writeFileSync(
      join(dir, "toolgate.config.yaml"),
      `${base}approvals: memory\naudit: { sink: jsonl:audit.jsonl }\n`,
    );
    const next = await loadPolicy({ cwd: dir });
    expect(() => reloadController(controller, next, handlers)).toThrow(
      /^audit\.sink changed from \(none\) to jsonl:audit\.jsonl/,
    );
  });
});
