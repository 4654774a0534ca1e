/**
 * `approval_ttl_ms` in the configuration sets how long a request stays usable (the documented one hour
 * otherwise), and `toolgate approvals list` shows each request's context in every output format, "none" too.
 */
import { join } from "node:path";
import { createController, DEFAULT_APPROVAL_TTL_MS, loadPolicy } from "toolgate";
import { describe, expect, it } from "vitest";
import { approvalConfig, runCli, writeTree } from "./cli-helpers.js";

function project(extra: string): string {
  const files = approvalConfig();
  return writeTree({ ...files, "toolgate.config.yaml": `${files["toolgate.config.yaml"]}${extra}` });
}

const note = (callId: string) => ({ callId, toolName: "write_note", arguments: { text: "hello" } });

describe("approval_ttl_ms and the context in approvals list", () => {
  it("the config's approval_ttl_ms sets the expiry; the option wins; without either it is one hour", async () => {
    const dir = project("approval_ttl_ms: 120000\n");
    const config = join(dir, "toolgate.config.yaml");
    const bundle = await loadPolicy({ config });
    expect(bundle.settings.approvalTtlMs).toBe(120_000);
    const handlers = { write_note: () => "noted" };
    const span = (r: unknown) => {
      const { createdAt, expiresAt } = r as { createdAt: number; expiresAt: number };
      return expiresAt - createdAt;
    };
    const fromConfig = createController({ bundle, handlers, cwd: process.cwd() });
    expect(span(await fromConfig.handle(note("t1"), { environment: "staging" }))).toBe(120_000);
    const fromOption = createController({
      bundle,
      handlers,
      approvalTtlMs: 5000,
      approvals: "memory",
      audit: "memory",
    });
    expect(span(await fromOption.handle(note("t2")))).toBe(5000);
    const plain = await loadPolicy({ config: join(project(""), "toolgate.config.yaml") });
    const byDefault = createController({ bundle: plain, handlers, approvals: "memory" });
    expect(span(await byDefault.handle(note("t3")))).toBe(DEFAULT_APPROVAL_TTL_MS);
    expect(DEFAULT_APPROVAL_TTL_MS).toBe(3_600_000);

    // Both stored requests of the config's store: one with a context, one without.
    await fromConfig.handle(note("t4"));
    await fromConfig.approvals.store.close?.();
    const text = await runCli(["approvals", "list", "--config", config]);
    expect(text.code).toBe(0);
    const blocks = text.stdout.trim().split("\n\n");
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toContain('\n  context:   {"environment":"staging"}\n');
    expect(blocks[1]).toContain("\n  context:   (none given)\n");

    // JSON writes the stored request as it is: the context when one was given.
    const json = await runCli(["approvals", "list", "--config", config, "--format", "json"]);
    const entries = JSON.parse(json.stdout) as { request: { context?: unknown } }[];
    expect(entries.map((e) => e.request.context)).toEqual([{ environment: "staging" }, undefined]);
  });

  it("a bad approval_ttl_ms is a config-schema error at its line", async () => {
    const dir = project("approval_ttl_ms: 0\n");
    const lint = await runCli(["lint", "--config", join(dir, "toolgate.config.yaml")]);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain('5:18  error  "approval_ttl_ms" must be >= 1  config-schema');
  });
});
