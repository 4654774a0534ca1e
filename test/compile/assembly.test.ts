/**
 * The compiled module holds data and one call of `assembleController`: no controller wiring of its own. What
 * the wiring decides from the policy (context validator, audit redaction, approval time to live, the mode and
 * its fingerprint, which tools need a handler) reaches the compiled controller through that call, and gives
 * what the controller built from the same YAML gives.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  compileController,
  createController,
  loadPolicy,
  MemoryApprovalStore,
  MemoryAuditSink,
  type PolicyBundle,
  type ToolController,
} from "toolgate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideApproval } from "../../src/inbox/decide.js";
import { importCompiled, tempDir, writeCompiled } from "./compiled-module.js";

const scratch = tempDir("compiled-assembly");
afterAll(() => scratch.remove());

const CONFIG = [
  "tools: [tools.yaml]",
  "policy: policy.yaml",
  "mode: observe",
  "approval_ttl_ms: 90000",
  "context_schema:",
  "  type: object",
  "  properties: { environment: { enum: [dev, prod] } }",
  "  additionalProperties: false",
  "audit:",
  "  sink: jsonl:audit.jsonl",
  "  redact: { write_note: [text] }",
  "",
].join("\n");

const TOOLS = [
  "tools:",
  "  - name: write_note",
  "    description: Write a note.",
  "    input_schema:",
  "      type: object",
  "      properties: { text: { type: string, maxLength: 100 } }",
  "      required: [text]",
  "      additionalProperties: false",
  "  - name: erase_disk",
  "    description: Erase the disk.",
  "    input_schema: { type: object, additionalProperties: false }",
  "",
].join("\n");

const POLICY = "version: 1\nask: [write_note]\ndeny: [erase_disk]\n";

/**
 * Identifiers of controller wiring: the classes it constructs, the checks it runs, and the options it reads.
 * None of them may appear in the module's text; the module only names `assembleController`.
 */
const WIRING = [
  "ToolController",
  "ToolRegistry",
  "ToolRuntime",
  "PendingApprovals",
  "assertHandlersFit",
  "refuseHandler",
  "assertControllerMode",
  "modeFingerprint",
  "ToolgateError",
  "handlers",
  "approvals",
  "onAsk",
  "onApprovalRequested",
  "onNotificationError",
  "maxArgumentBytes",
  "handlerTimeoutMs",
  "ttlMs:",
  "options.",
];

let bundle: PolicyBundle;
let moduleText: string;

beforeAll(async () => {
  writeFileSync(join(scratch.dir, "toolgate.config.yaml"), CONFIG);
  writeFileSync(join(scratch.dir, "tools.yaml"), TOOLS);
  writeFileSync(join(scratch.dir, "policy.yaml"), POLICY);
  bundle = await loadPolicy({ config: join(scratch.dir, "toolgate.config.yaml") });
  moduleText = (await compileController(bundle)).module;
});

describe("the compiled module's createController", () => {
  it("is one call of assembleController, and the module spells out no wiring", () => {
    const found = WIRING.filter((name) => moduleText.includes(name));
    expect(found).toEqual([]);
    const bodies = moduleText.match(/export function createController\(options\) \{[^}]*\}/g);
    expect(bodies).toEqual([
      "export function createController(options) {\n  return assembleController(parts, options);\n}",
    ]);
    const imports = moduleText.match(/^import .*$/gm);
    expect(imports).toEqual([
      'import { ToolPolicy } from "toolgate/runtime";',
      expect.stringMatching(/^import \{ [\w, ]*\bassembleController\b[\w, ]* \} from "toolgate\/compiled";$/),
    ]);
    expect(moduleText).not.toContain("require(");
  });

  it("gives the controller the policy's wiring, as createController from YAML does", async () => {
    const mod = await importCompiled(await writeCompiled(bundle, scratch.dir));
    const audit = { compiled: new MemoryAuditSink(), loaded: new MemoryAuditSink() };
    const handlers = { write_note: ({ text }: { text: string }) => `wrote ${text.length}` };
    const controllers: Record<"compiled" | "loaded", ToolController> = {
      compiled: mod.createController({ handlers, audit: audit.compiled }),
      loaded: createController({ bundle, handlers, audit: audit.loaded }),
    };
    for (const [name, controller] of Object.entries(controllers) as [keyof typeof audit, ToolController][]) {
      expect(controller.mode, name).toBe("observe");
      expect(controller.policy.fingerprint, name).toBe(bundle.fingerprint);
      expect(controller.approvals.ttlMs, name).toBe(90_000);
      // The context schema is enforced before any decision.
      const refused = await controller.handle(
        { callId: "c1", toolName: "write_note", arguments: { text: "hi" } },
        { environment: "staging" },
      );
      expect(refused, name).toMatchObject({ callId: "c1", isError: true });
      // Observe mode runs the asked call; the audit log redacts the configured field.
      const ran = await controller.handle(
        { callId: "c2", toolName: "write_note", arguments: { text: "secret" } },
        { environment: "dev" },
      );
      expect(ran, name).toEqual({ callId: "c2", content: "wrote 6", isError: false });
      const logged = JSON.stringify(audit[name].events);
      expect(logged, name).toContain("[redacted]");
      expect(logged, name).not.toContain("secret");
    }
    // Another mode decides under that mode's fingerprint, the same in both.
    const enforced = {
      compiled: mod.createController({ handlers, mode: "enforce" } as never),
      loaded: createController({ bundle, handlers, mode: "enforce" }),
    };
    expect(enforced.compiled.policy.fingerprint).toBe(enforced.loaded.policy.fingerprint);
    expect(enforced.compiled.policy.fingerprint).not.toBe(bundle.fingerprint);
  });

  it("refuses handlers that do not fit, store URLs and unknown modes, as the assembly does", async () => {
    const mod = await importCompiled(await writeCompiled(bundle, scratch.dir, "refusals.mjs"));
    expect(() => mod.createController({ handlers: {} })).toThrow(/write_note.*has no handler/);
    expect(() => mod.createController({ handlers: { write_note: () => "", erase: () => "" } })).toThrow(
      /"erase", which no tool file declares/,
    );
    expect(() => mod.createController(undefined as never)).toThrow(/handlers must be an object/);
    expect(() =>
      mod.createController({ handlers: { write_note: () => "" }, approvals: "sqlite:x.db" } as never),
    ).toThrow(/not a URL/);
    expect(() =>
      mod.createController({ handlers: { write_note: () => "" }, mode: "relaxed" } as never),
    ).toThrow(/relaxed/);
  });
});

describe("grants.max_hours reaches both controllers where a grant is used", () => {
  it("with max_hours 0 no remembered approval is used, in the compiled and the loaded controller alike", async () => {
    const dir = tempDir("compiled-grants");
    try {
      const config = (extra: string) => `tools: [tools.yaml]\npolicy: policy.yaml\n${extra}`;
      writeFileSync(join(dir.dir, "tools.yaml"), TOOLS);
      writeFileSync(join(dir.dir, "policy.yaml"), POLICY);
      for (const [setting, asksAgain] of [
        ["", false],
        ["grants: { max_hours: 0 }\n", true],
      ] as const) {
        writeFileSync(join(dir.dir, "toolgate.config.yaml"), config(setting));
        const loaded = await loadPolicy({ config: join(dir.dir, "toolgate.config.yaml") });
        const mod = await importCompiled(
          await writeCompiled(loaded, dir.dir, `grants-${asksAgain ? "off" : "on"}.mjs`),
        );
        const handlers = { write_note: ({ text }: { text: string }) => `wrote ${text}` };
        for (const controller of [
          mod.createController({ handlers, approvals: new MemoryApprovalStore() }),
          createController({ bundle: loaded, handlers, approvals: new MemoryApprovalStore() }),
        ]) {
          const call = { callId: "c1", toolName: "write_note", arguments: { text: "hi" } };
          const request = (await controller.handle(call)) as { approvalId: string };
          // A grant made under a longer setting (the store keeps what the inbox recorded then).
          await decideApproval(
            controller.approvals.store,
            {
              approvalId: request.approvalId,
              approved: true,
              approver: "ana",
              remember: { kind: "arguments", durationMs: 3_600_000 },
            },
            { maxMs: 24 * 3_600_000, sessionKey: "session_id" },
            Date.now(),
          );
          await controller.waitForDecision(request.approvalId, { pollMs: 1 });
          const again = await controller.handle({ ...call, callId: "c2" });
          expect("approvalId" in again, setting).toBe(asksAgain);
        }
      }
    } finally {
      dir.remove();
    }
  });
});
