/**
 * Enforcement modes: `observe` runs what the policy would refuse and records that it would have; `ci` denies
 * what the policy would ask a person about; `enforce` (the default) applies every decision. The mode is part
 * of the fingerprint and of every audit event, and a keyed audit log with it still verifies.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import {
  type AuditEvent,
  createController,
  JsonlAuditSink,
  loadPolicy,
  MemoryAuditSink,
  PendingApprovals,
  type PolicyBundle,
  PostgresAuditSink,
  policyFingerprint,
  reloadController,
  SqliteAuditSink,
  ToolgateError,
} from "toolgate";
import { assembleController, assembleState } from "toolgate/compiled";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { bundleParts } from "../../src/bundle/bundle-parts.js";
import { runCli, writeTree } from "../cli/cli-helpers.js";
import { importCompiled, tempDir, writeCompiled } from "../compile/compiled-module.js";
import { describePostgres, dropTables, uniquePrefix } from "../stores/helpers.js";

afterEach(() => vi.restoreAllMocks());

const TOOLS = [
  "tools:",
  "  - name: write_note",
  "    description: Write a note.",
  "    input_schema:",
  "      type: object",
  "      properties: { text: { type: string } }",
  "      required: [text]",
  "      additionalProperties: false",
  "  - name: erase_disk",
  "    description: Erase the disk.",
  "    input_schema: { type: object, properties: { disk: { type: string } }, additionalProperties: false }",
  "  - name: deploy",
  "    description: Deploy a service.",
  "    input_schema: { type: object, properties: { service: { type: string } }, additionalProperties: false }",
  "",
].join("\n");

const POLICY = [
  "version: 1",
  "allow: [write_note]",
  "ask: [deploy]",
  "deny: [erase_disk]",
  "reasons:",
  "  erase_disk: erasing a disk cannot be undone",
  "  deploy: deploys reach customers",
  "",
].join("\n");

const BASE_CONFIG = "tools: [tools.yaml]\npolicy: policy.yaml\n";

function project(extra = ""): string {
  return writeTree({
    "toolgate.config.yaml": BASE_CONFIG + extra,
    "tools.yaml": TOOLS,
    "policy.yaml": POLICY,
  });
}

async function bundleOf(dir: string): Promise<PolicyBundle> {
  return loadPolicy({ config: join(dir, "toolgate.config.yaml") });
}

function counting() {
  const ran: string[] = [];
  const handlers = {
    write_note: ({ text }: { text: string }) => {
      ran.push(`write_note ${text}`);
      return `wrote ${text}`;
    },
    erase_disk: ({ disk }: { disk?: string }) => {
      ran.push(`erase_disk ${disk ?? ""}`);
      return "erased";
    },
    deploy: ({ service }: { service?: string }) => {
      ran.push(`deploy ${service ?? ""}`);
      return "deployed";
    },
  };
  return { ran, handlers };
}

const call = (toolName: string, args: unknown, callId = `c-${toolName}`) => ({
  callId,
  toolName,
  arguments: args,
});

describe("observe mode", () => {
  it("runs a call the policy denies, and the audit says it would have been denied", async () => {
    const bundle = await bundleOf(project("mode: observe\n"));
    const audit = new MemoryAuditSink();
    const { ran, handlers } = counting();
    const controller = createController({ bundle, handlers, audit });
    expect(controller.mode).toBe("observe");

    const result = await controller.handle(call("erase_disk", { disk: "sda" }));
    expect(result).toEqual({ callId: "c-erase_disk", content: "erased", isError: false });
    expect(ran).toEqual(["erase_disk sda"]);
    const decided = audit.events.find((e) => e.type === "policy.decided");
    expect(decided).toMatchObject({
      decision: "allow",
      wouldHave: "deny",
      ruleIds: ["deny:erase_disk"],
      mode: "observe",
      fingerprint: bundle.fingerprint,
    });
    expect(decided?.reason).toBe(
      "the policy would have denied this call (erasing a disk cannot be undone); it ran because the mode is observe",
    );
    expect(audit.events.map((e) => e.type)).toEqual(["call.received", "policy.decided", "tool.executed"]);
    for (const event of audit.events) expect(event.mode).toBe("observe");
  });

  it("runs an ask without storing an approval, recording that a person would have been asked", async () => {
    const bundle = await bundleOf(project("mode: observe\n"));
    const audit = new MemoryAuditSink();
    const approvals = new PendingApprovals();
    const { ran, handlers } = counting();
    const controller = createController({ bundle, handlers, audit, approvals });
    const result = await controller.handle(call("deploy", { service: "api" }));
    expect(result).toMatchObject({ content: "deployed", isError: false });
    expect(ran).toEqual(["deploy api"]);
    expect(await approvals.list()).toEqual([]);
    expect(audit.events.find((e) => e.type === "policy.decided")).toMatchObject({
      decision: "allow",
      wouldHave: "ask",
    });
  });

  it("without an audit sink, still runs what the policy would refuse", async () => {
    const bundle = await bundleOf(project());
    const { ran, handlers } = counting();
    const controller = createController({ bundle, handlers, mode: "observe" });
    await controller.handle(call("erase_disk", {}));
    expect(ran).toEqual(["erase_disk "]);
  });

  it("a call that fails its input schema still never runs", async () => {
    const bundle = await bundleOf(project("mode: observe\n"));
    const { ran, handlers } = counting();
    const controller = createController({ bundle, handlers });
    const result = await controller.handle(call("write_note", { text: 3 }));
    expect(result).toMatchObject({ isError: true });
    expect(ran).toEqual([]);
  });
});

describe("ci mode", () => {
  it("turns an ask into a deny saying no person is present, and stores nothing", async () => {
    const bundle = await bundleOf(project("mode: ci\n"));
    const audit = new MemoryAuditSink();
    const approvals = new PendingApprovals();
    const { ran, handlers } = counting();
    const controller = createController({ bundle, handlers, audit, approvals });
    const result = await controller.handle(call("deploy", { service: "api" }));
    expect(result).toEqual({
      callId: "c-deploy",
      isError: true,
      content:
        "denied by policy: needs a person's approval (deploys reach customers), and no person is present to give it (mode: ci) (rule: ask:deploy)",
    });
    expect(ran).toEqual([]);
    expect(await approvals.list()).toEqual([]);
    expect(audit.events.find((e) => e.type === "policy.decided")).toMatchObject({
      decision: "deny",
      mode: "ci",
      ruleIds: ["ask:deploy"],
    });
    expect(audit.events.some((e) => e.wouldHave !== undefined)).toBe(false);
  });

  it("leaves allow and deny as they are", async () => {
    const bundle = await bundleOf(project("mode: ci\n"));
    const { ran, handlers } = counting();
    const controller = createController({ bundle, handlers });
    expect(await controller.handle(call("write_note", { text: "hi" }))).toMatchObject({ isError: false });
    expect(await controller.handle(call("erase_disk", {}))).toMatchObject({ isError: true });
    expect(ran).toEqual(["write_note hi"]);
  });
});

describe("enforce mode (the default)", () => {
  it("queues an ask and refuses a deny; every event says enforce", async () => {
    const bundle = await bundleOf(project());
    const audit = new MemoryAuditSink();
    const { ran, handlers } = counting();
    const controller = createController({ bundle, handlers, audit });
    expect(controller.mode).toBe("enforce");
    expect(await controller.handle(call("deploy", {}))).toMatchObject({ kind: "approval-request" });
    expect(await controller.handle(call("erase_disk", {}))).toMatchObject({ isError: true });
    expect(ran).toEqual([]);
    expect(audit.events.length).toBeGreaterThan(0);
    for (const event of audit.events) expect(event.mode).toBe("enforce");
  });

  it("records onAsk: deny's refusal, so that an ask decision is always followed by what became of it", async () => {
    const bundle = await bundleOf(project());
    const audit = new MemoryAuditSink();
    const { handlers } = counting();
    const controller = createController({ bundle, handlers, audit, onAsk: "deny" });
    await controller.handle(call("deploy", {}));
    expect(audit.events.map((e) => e.type)).toEqual(["call.received", "policy.decided", "call.rejected"]);
    expect(audit.events[2]?.reason).toContain("(onAsk: deny)");
  });
});

describe("the mode and the fingerprint", () => {
  it("a config's mode other than enforce changes the fingerprint; enforce written out does not", async () => {
    const plain = await bundleOf(project());
    const enforce = await bundleOf(project("mode: enforce\n"));
    const observe = await bundleOf(project("mode: observe\n"));
    const ci = await bundleOf(project("mode: ci\n"));
    expect(enforce.fingerprint).toBe(plain.fingerprint);
    expect(new Set([plain.fingerprint, observe.fingerprint, ci.fingerprint]).size).toBe(3);
    expect(observe.fingerprint).toBe(
      policyFingerprint(plain.tools, plain.statements, plain.contextSchema, "observe"),
    );
  });

  it("the bundle carries its mode, resolved once when it is made: the config's, else enforce", async () => {
    expect((await bundleOf(project())).mode).toBe("enforce");
    expect((await bundleOf(project("mode: ci\n"))).mode).toBe("ci");
    const observe = await bundleOf(project("mode: observe\n"));
    expect(observe.mode).toBe("observe");
    expect(createController({ bundle: observe, handlers: counting().handlers }).mode).toBe("observe");
  });

  it("an assembly built once runs in its own mode; a different mode option beside it is refused", async () => {
    const bundle = await bundleOf(project());
    const { handlers } = counting();
    const parts = bundleParts(bundle);
    const assembly = assembleState(parts, handlers, "ci");
    const controller = assembleController(parts, { handlers }, assembly);
    expect(controller.mode).toBe("ci");
    expect(controller.policy).toBe(assembly.policy);
    expect(() => assembleController(parts, { handlers, mode: "observe" }, assembly)).toThrow(
      /the assembled state is for mode ci, not observe/,
    );
  });

  it("a mode passed to createController decides under that mode's fingerprint, as if the config said it", async () => {
    const plain = await bundleOf(project());
    const observe = await bundleOf(project("mode: observe\n"));
    const audit = new MemoryAuditSink();
    const { handlers } = counting();
    const controller = createController({ bundle: plain, handlers, audit, mode: "observe" });
    expect(controller.policy.fingerprint).toBe(observe.fingerprint);
    await controller.handle(call("erase_disk", {}));
    for (const event of audit.events) expect(event.fingerprint).toBe(observe.fingerprint);
    // And back: enforce asked of an observe config gives the plain fingerprint.
    const enforced = createController({ bundle: observe, handlers, mode: "enforce" });
    expect(enforced.policy.fingerprint).toBe(plain.fingerprint);
    expect(enforced.mode).toBe("enforce");
  });

  it("the compiled module carries the config's mode, and a mode option gives the loaded controller's fingerprint", async () => {
    const observe = await bundleOf(project("mode: observe\napproval_ttl_ms: 90000\n"));
    const temp = tempDir("modes");
    try {
      const module = (await importCompiled(await writeCompiled(observe, temp.dir))) as Awaited<
        ReturnType<typeof importCompiled>
      > & { mode: string };
      expect(module.mode).toBe("observe");
      expect(module.fingerprint).toBe(observe.fingerprint);
      const { handlers } = counting();
      const compiledCi = module.createController({ handlers, mode: "ci" } as never);
      const loadedCi = createController({ bundle: observe, handlers, mode: "ci" });
      expect(compiledCi.mode).toBe("ci");
      expect(compiledCi.policy.fingerprint).toBe(loadedCi.policy.fingerprint);
      expect(compiledCi.policy.fingerprint).toBe((await bundleOf(project("mode: ci\n"))).fingerprint);
      const a = await compiledCi.handle(call("deploy", {}));
      const b = await loadedCi.handle(call("deploy", {}));
      expect(a).toEqual(b);
      // The compiled default is the config's: observe runs the denied call.
      const compiledObserve = module.createController({ handlers });
      expect(await compiledObserve.handle(call("erase_disk", {}))).toMatchObject({ isError: false });
      // approval_ttl_ms is compiled in too.
      const enforced = module.createController({ handlers, mode: "enforce" } as never);
      const request = await enforced.handle(call("deploy", {}));
      expect(request).toMatchObject({ kind: "approval-request" });
      const { createdAt, expiresAt } = request as { createdAt: number; expiresAt: number };
      expect(expiresAt - createdAt).toBe(90_000);
      expect(() => module.createController({ handlers, mode: "audit" } as never)).toThrow(
        /mode must be one of enforce, observe, ci/,
      );
    } finally {
      temp.remove();
    }
  });

  it("a compiled module whose mode was edited refuses to load: the mode is in its fingerprint", async () => {
    const observe = await bundleOf(project("mode: observe\n"));
    const temp = tempDir("modes-edit");
    try {
      const file = await writeCompiled(observe, temp.dir);
      const text = readFileSync(file, "utf8");
      expect(text).toContain('export const mode = "observe";');
      const edited = join(temp.dir, "edited.mjs");
      writeFileSync(edited, text.replace('export const mode = "observe";', 'export const mode = "enforce";'));
      await expect(importCompiled(edited)).rejects.toThrow(/does not match its fingerprint/);
    } finally {
      temp.remove();
    }
  });

  it("an unknown mode is refused: as an option with invalid-option, in the config as config-schema", async () => {
    const bundle = await bundleOf(project());
    const { handlers } = counting();
    const thrown = (() => {
      try {
        createController({ bundle, handlers, mode: "watch" as never });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(ToolgateError);
    expect((thrown as ToolgateError).code).toBe("invalid-option");
    const lint = await runCli(["lint", "--config", join(project("mode: watch\n"), "toolgate.config.yaml")]);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain("config-schema");
    expect(lint.stdout).toContain(
      '3:7  error  "mode" must be one of "enforce", "observe", "ci"  config-schema',
    );
  });
});

describe("reloads and the mode", () => {
  it("a reload applies the config's new mode, unless the application chose one", async () => {
    const dir = project();
    const config = join(dir, "toolgate.config.yaml");
    const { handlers } = counting();
    const fromConfig = createController({ bundle: await bundleOf(dir), handlers });
    const chosen = createController({ bundle: await bundleOf(dir), handlers, mode: "ci" });
    writeFileSync(config, `${BASE_CONFIG}mode: observe\n`);
    const next = await bundleOf(dir);
    reloadController(fromConfig, next, handlers);
    reloadController(chosen, next, handlers);
    expect(fromConfig.mode).toBe("observe");
    expect(fromConfig.policy.fingerprint).toBe(next.fingerprint);
    expect(chosen.mode).toBe("ci");
    expect(chosen.policy.fingerprint).toBe(
      policyFingerprint(next.tools, next.statements, next.contextSchema, "ci"),
    );
  });
});

describe("the mode in durable audit logs", () => {
  it("a keyed JSONL log with mode and wouldHave still passes audit verify, and the SQLite row holds them", async () => {
    const dir = project("mode: observe\n");
    const keyFile = join(dir, "audit.key");
    writeFileSync(keyFile, `${"7".repeat(64)}\n`, { mode: 0o600 });
    const file = join(dir, "audit.jsonl");
    const jsonl = new JsonlAuditSink(file, { keyFile });
    const { handlers } = counting();
    const bundle = await bundleOf(dir);
    const controller = createController({ bundle, handlers, audit: jsonl });
    await controller.handle(call("erase_disk", { disk: "sdb" }));
    await controller.handle(call("deploy", { service: "web" }));
    await jsonl.close();
    const events = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as AuditEvent);
    expect(events.filter((e) => e.wouldHave !== undefined).map((e) => e.wouldHave)).toEqual(["deny", "ask"]);
    expect(events.every((e) => e.mode === "observe")).toBe(true);
    const verified = await runCli(["audit", "verify", file, "--key", keyFile]);
    expect(verified.stderr).toBe("");
    expect(verified.stdout).toContain("6 lines, keyed chain intact");
    expect(verified.code).toBe(0);
    // Editing the mode of one line breaks the chain.
    const lines = readFileSync(file, "utf8").split("\n");
    lines[1] = (lines[1] as string).replace('"mode":"observe"', '"mode":"enforce"');
    writeFileSync(file, lines.join("\n"));
    expect((await runCli(["audit", "verify", file, "--key", keyFile])).code).toBe(1);

    const sqlite = new SqliteAuditSink(join(dir, "audit.db"));
    const viaSqlite = createController({ bundle, handlers, audit: sqlite });
    await viaSqlite.handle(call("erase_disk", {}));
    await sqlite.close();
    const Database = (await import("better-sqlite3")).default;
    const db = new Database(join(dir, "audit.db"), { readonly: true });
    const rows = db.prepare("SELECT type, decision, event FROM toolgate_audit ORDER BY id").all() as {
      type: string;
      decision: string | null;
      event: string;
    }[];
    db.close();
    const decided = rows.find((r) => r.type === "policy.decided");
    expect(decided?.decision).toBe("allow");
    expect(JSON.parse(decided?.event ?? "{}")).toMatchObject({ mode: "observe", wouldHave: "deny" });
  });
});

describePostgres("the mode in the PostgreSQL audit sink", (url) => {
  const tablePrefix = uniquePrefix();
  afterAll(() => dropTables(url, tablePrefix));

  it("each row's event JSON carries the mode and wouldHave; the decision column is what ran", async () => {
    const bundle = await bundleOf(project("mode: observe\n"));
    const sink = new PostgresAuditSink(url, { tablePrefix });
    const { handlers } = counting();
    const controller = createController({ bundle, handlers, audit: sink });
    await controller.handle(call("erase_disk", {}));
    await sink.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(`SELECT type, decision, event FROM ${tablePrefix}audit ORDER BY id`);
    await client.end();
    expect(rows.map((r) => r.type)).toEqual(["call.received", "policy.decided", "tool.executed"]);
    expect(rows[1]?.decision).toBe("allow");
    expect(rows.map((r) => (JSON.parse(String(r.event)) as AuditEvent).mode)).toEqual([
      "observe",
      "observe",
      "observe",
    ]);
    expect(JSON.parse(String(rows[1]?.event))).toMatchObject({ wouldHave: "deny" });
  });
});
