import { appendFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createController,
  type Diagnostic,
  loadPolicy,
  MemoryAuditSink,
  type PolicyBundle,
  type WatchPolicyOptions,
  watchPolicy,
} from "toolgate";
import { describe, expect, it } from "vitest";
import { filesAreStable } from "../../src/composition/watch-policy.js";
import { writeTree } from "../cli/cli-helpers.js";

const tools = [
  "tools:",
  "  - name: write_note",
  "    description: Write a note.",
  "    input_schema:",
  "      type: object",
  "      properties: { text: { type: string } }",
  "      required: [text]",
  "      additionalProperties: false",
  "",
].join("\n");

function until(check: () => boolean, ms = 5_000): Promise<void> {
  const start = Date.now();
  return new Promise((done, fail) => {
    const tick = () => {
      if (check()) done();
      else if (Date.now() - start > ms) fail(new Error("timed out"));
      else setTimeout(tick, 20);
    };
    tick();
  });
}

describe("watchPolicy and safe reload", () => {
  it("reloads on a good change, keeps the old policy on a bad one, and re-checks pending approvals", async () => {
    const dir = writeTree({
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "tools.yaml": tools,
      "policy.yaml": "version: 1\nask: [write_note]\n",
    });
    const bundle = await loadPolicy({ cwd: dir });
    const audit = new MemoryAuditSink();
    let runs = 0;
    const handlers = {
      write_note: ({ text }: { text: string }) => {
        runs++;
        return `wrote ${text}`;
      },
    };
    const controller = createController({ bundle, handlers, audit, cwd: dir });
    const pending = await controller.handle({
      callId: "c1",
      toolName: "write_note",
      arguments: { text: "a" },
    });
    expect("approvalId" in pending).toBe(true);

    const reloads: string[] = [];
    const errors: (readonly Diagnostic[])[] = [];
    const watcher = watchPolicy({
      controller,
      handlers,
      cwd: dir,
      debounceMs: 20,
      onReload: (b) => reloads.push(b.fingerprint),
      onError: (d) => errors.push(d),
    });
    try {
      await watcher.ready;
      // A broken edit: the old policy stays in force and the diagnostics are reported.
      writeFileSync(join(dir, "policy.yaml"), "version: 1\nask: [write_notes]\n");
      await until(() => errors.length > 0);
      expect(errors[0]?.[0]).toMatchObject({ code: "unknown-tool", file: "policy.yaml", line: 2 });
      expect(controller.policy.fingerprint).toBe(bundle.fingerprint);

      // A good edit that denies the tool: the pending approval is re-checked against it.
      writeFileSync(join(dir, "policy.yaml"), "version: 1\ndeny: [write_note]\n");
      await until(() => reloads.length > 0);
      expect(controller.policy.fingerprint).not.toBe(bundle.fingerprint);
      const result = await controller.resolve({
        approvalId: (pending as { approvalId: string }).approvalId,
        approved: true,
      });
      expect(result).toEqual({
        callId: "c1",
        content: "denied by policy: tool write_note is denied by the policy (rule: deny:write_note)",
        isError: true,
      });
      expect(runs).toBe(0);
      // The audit records both fingerprints: the one that asked and the one that decided.
      const decided = audit.events.filter((e) => e.type === "policy.decided").at(-1);
      expect(decided).toMatchObject({
        fingerprint: reloads[0],
        requestFingerprint: bundle.fingerprint,
        decision: "deny",
      });
    } finally {
      watcher.close();
    }
  });
});

const NOTE_POLICY = "version: 1\nallow: [write_note]\n";

async function watched(files: Record<string, string>, extra: Partial<WatchPolicyOptions> = {}) {
  const dir = writeTree(files);
  const bundle = await loadPolicy({
    cwd: dir,
    ...(extra.config === undefined ? {} : { config: extra.config }),
  });
  const handlers = { write_note: ({ text }: { text: string }) => `wrote ${text}` };
  const controller = createController({ bundle, handlers, cwd: dir });
  const reloads: PolicyBundle[] = [];
  const errors: { diagnostics: readonly Diagnostic[]; error: unknown }[] = [];
  const watcher = watchPolicy({
    controller,
    handlers,
    cwd: dir,
    debounceMs: 20,
    stableMs: 50,
    onReload: (b) => {
      reloads.push(b);
    },
    onError: (diagnostics, error) => {
      errors.push({ diagnostics, error });
    },
    ...extra,
  });
  return { dir, bundle, controller, reloads, errors, watcher };
}

describe("the watch's stability rule", () => {
  it("a file counts as stable only when two looks stableMs apart agree", async () => {
    const looks = new Map([
      ["a", ["1", "1"]],
      ["b", ["7", "8"]],
    ]);
    const sleeps: number[] = [];
    const fake = (path: string) => Promise.resolve((looks.get(path) as string[]).shift() as string);
    const sleep = async (ms: number) => {
      sleeps.push(ms);
    };
    expect(await filesAreStable(["a", "b"], 75, fake, sleep)).toBe(false);
    looks.set("a", ["1", "1"]).set("b", ["8", "8"]);
    expect(await filesAreStable(["a", "b"], 75, fake, sleep)).toBe(true);
    expect(sleeps).toEqual([75, 75]);
  });

  it("a policy written in two chunks with a pause is never applied half-written", async () => {
    // The first chunk alone is a valid, looser policy: it allows the tool without the rule.
    const full = [
      "version: 1",
      "allow: [write_note]",
      "rules:",
      "  - id: no-secrets",
      "    tools: [write_note]",
      "    decision: deny",
      "    when: { text: { equals: secret } }",
      "    reason: secrets are never written to notes",
      "",
    ].join("\n");
    const cut = full.indexOf("rules:");
    const { dir, reloads, errors, watcher } = await watched(
      {
        "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
        "tools.yaml": tools,
        "policy.yaml": "version: 1\nask: [write_note]\n",
      },
      { stableMs: 600 },
    );
    try {
      await watcher.ready;
      const file = join(dir, "policy.yaml");
      writeFileSync(file, full.slice(0, cut));
      await new Promise((done) => setTimeout(done, 250));
      appendFileSync(file, full.slice(cut));
      await until(() => reloads.length > 0, 20_000);
      await new Promise((done) => setTimeout(done, 300));
      expect(errors).toEqual([]);
      expect(reloads.map((b) => b.statements.some((s) => s.id === "no-secrets"))).toEqual([true]);
    } finally {
      watcher.close();
    }
  });
});

describe("what the watch follows", () => {
  it("a watch started while the configuration is broken reports it through onError and picks up the fix", async () => {
    const { dir, bundle, controller, reloads, errors, watcher } = await watched({
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "tools.yaml": tools,
      "policy.yaml": NOTE_POLICY,
    });
    watcher.close();
    writeFileSync(join(dir, "policy.yaml"), "version: 1\nallow: [write_notes]\n");
    const second = watchPolicy({
      controller,
      handlers: { write_note: () => "ok" },
      cwd: dir,
      debounceMs: 20,
      stableMs: 50,
      onReload: (b) => {
        reloads.push(b);
      },
      onError: (diagnostics) => {
        errors.push({ diagnostics, error: undefined });
      },
    });
    try {
      await second.ready;
      expect(
        errors.map((e) => e.diagnostics.filter((d) => d.severity === "error").map((d) => d.code)),
      ).toEqual([["unknown-tool"]]);
      expect(controller.policy.fingerprint).toBe(bundle.fingerprint);
      writeFileSync(join(dir, "policy.yaml"), "version: 1\nask: [write_note]\n");
      await until(() => reloads.length > 0, 20_000);
      expect(controller.policy.fingerprint).toBe(reloads[0]?.fingerprint);
      expect(controller.policy.fingerprint).not.toBe(bundle.fingerprint);
    } finally {
      second.close();
    }
  });

  it("follows a symlinked policy file: editing its target and re-pointing the link both reload", async () => {
    const dir = writeTree({
      "app/toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "app/tools.yaml": tools,
      "shared/ask.yaml": "version: 1\nask: [write_note]\n",
      "shared/deny.yaml": "version: 1\ndeny: [write_note]\n",
    });
    const reloads: PolicyBundle[] = [];
    const errors: { diagnostics: readonly Diagnostic[]; error: unknown }[] = [];
    const app = join(dir, "app");
    symlinkSync(join(dir, "shared/ask.yaml"), join(app, "policy.yaml"));
    const bundle = await loadPolicy({ cwd: app });
    const handlers = { write_note: () => "ok" };
    const controller = createController({ bundle, handlers, cwd: app });
    const linked = watchPolicy({
      controller,
      handlers,
      cwd: app,
      debounceMs: 20,
      stableMs: 50,
      onReload: (b) => {
        reloads.push(b);
      },
      onError: (diagnostics, error) => {
        errors.push({ diagnostics, error });
      },
    });
    try {
      await linked.ready;
      // The target lives in another directory than the link.
      writeFileSync(join(dir, "shared/ask.yaml"), NOTE_POLICY);
      await until(() => reloads.length === 1, 20_000);
      expect(
        controller.policy.decide({ callId: "c", toolName: "write_note", arguments: { text: "x" } }, {}),
      ).toMatchObject({ action: "allow" });
      // Re-pointing the link (a new link renamed over the old one, as `ln -sfn` does).
      symlinkSync(join(dir, "shared/deny.yaml"), join(app, "policy.yaml.new"));
      renameSync(join(app, "policy.yaml.new"), join(app, "policy.yaml"));
      await until(() => reloads.length === 2, 20_000);
      expect(
        controller.policy.decide({ callId: "c", toolName: "write_note", arguments: { text: "x" } }, {}),
      ).toMatchObject({ action: "deny" });
      // And the new target is watched from then on.
      writeFileSync(join(dir, "shared/deny.yaml"), "version: 1\nask: [write_note]\n");
      await until(() => reloads.length === 3, 20_000);
      expect(errors).toEqual([]);
    } finally {
      linked.close();
    }
  });

  it("watches every file the configuration reads: an extends layer in another directory reloads", async () => {
    const { dir, reloads, watcher, controller } = await watched({
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policies/main.yaml\n",
      "tools.yaml": tools,
      "policies/main.yaml": "version: 1\nextends: [../base/base.yaml]\n",
      "base/base.yaml": "version: 1\nask: [write_note]\n",
    });
    try {
      await watcher.ready;
      writeFileSync(join(dir, "base/base.yaml"), "version: 1\ndeny: [write_note]\n");
      await until(() => reloads.length > 0, 20_000);
      expect(controller.visibleSpecs()).toEqual([]);
    } finally {
      watcher.close();
    }
  });
});

describe("callbacks that fail", () => {
  it("a throwing or rejecting onReload goes to onError; a throwing onError becomes a process warning", async () => {
    const unhandled: unknown[] = [];
    const warnings: string[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("unhandledRejection", onUnhandled);
    process.on("warning", onWarning);
    const errors: { diagnostics: readonly Diagnostic[]; error: unknown }[] = [];
    const dir = writeTree({
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "tools.yaml": tools,
      "policy.yaml": NOTE_POLICY,
    });
    const bundle = await loadPolicy({ cwd: dir });
    const handlers = { write_note: () => "ok" };
    const controller = createController({ bundle, handlers, cwd: dir });
    let calls = 0;
    const watcher = watchPolicy({
      controller,
      handlers,
      cwd: dir,
      debounceMs: 20,
      stableMs: 50,
      onReload: async () => {
        calls++;
        if (calls === 1) throw new Error("onReload broke");
        await Promise.reject(new Error("onReload rejected"));
      },
      onError: (diagnostics, error) => {
        errors.push({ diagnostics, error });
        if (diagnostics.length > 0) throw new Error("onError broke");
      },
    });
    try {
      await watcher.ready;
      expect(await watcher.reload()).toMatchObject({ ok: true });
      expect(await watcher.reload()).toMatchObject({ ok: true });
      expect(errors.map((e) => [e.diagnostics, (e.error as Error).message])).toEqual([
        [[], "onReload broke"],
        [[], "onReload rejected"],
      ]);
      writeFileSync(join(dir, "policy.yaml"), "version: 1\nallow: [write_notes]\n");
      expect(await watcher.reload()).toMatchObject({ ok: false });
      await until(() => warnings.length > 0);
      // The watch's own reload of the same edit may warn a second time: every warning is this one.
      expect(new Set(warnings)).toEqual(
        new Set(["toolgate watchPolicy: onError threw: Error: onError broke"]),
      );
      await new Promise((done) => setTimeout(done, 50));
      expect(unhandled).toEqual([]);
    } finally {
      watcher.close();
      process.off("unhandledRejection", onUnhandled);
      process.off("warning", onWarning);
    }
  });
});
