// Settings that loosen enforcement without touching a rule are reported as loosenings, and diff compares
// decisions with the configuration's mode applied, as explain and the controller do.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BundleSettings } from "../../src/bundle/policy-bundle.js";
import { diffPolicies } from "../../src/diff/diff-policies.js";
import { compareAliases, compareSettings } from "../../src/diff/setting-changes.js";
import type { ToolAlias } from "../../src/runtime/tool-aliases.js";
import { loadSide } from "./diff-helpers.js";

const kinds = (base: BundleSettings, head: BundleSettings) =>
  compareSettings(base, head).map((c) => [c.setting, c.change]);

describe("compareSettings", () => {
  it("orders modes observe < enforce < ci", () => {
    expect(kinds({}, { mode: "observe" })).toEqual([["mode", "loosened"]]);
    expect(kinds({ mode: "ci" }, {})).toEqual([["mode", "loosened"]]);
    expect(kinds({ mode: "observe" }, { mode: "ci" })).toEqual([["mode", "tightened"]]);
    expect(kinds({ mode: "enforce" }, {})).toEqual([]);
  });

  it("longer grants or approval requests loosen; shorter ones tighten; defaults count as their values", () => {
    expect(kinds({ grants: { maxHours: 8 } }, {})).toEqual([["grants.max_hours", "loosened"]]);
    expect(kinds({}, { grants: { maxHours: 0 } })).toEqual([["grants.max_hours", "tightened"]]);
    expect(kinds({ grants: { maxHours: 24 } }, {})).toEqual([]);
    expect(kinds({}, { approvalTtlMs: 7_200_000 })).toEqual([["approval_ttl_ms", "loosened"]]);
    expect(kinds({ grants: { sessionKey: "a" } }, { grants: { sessionKey: "b" } })).toEqual([
      ["grants.session_key", "changed"],
    ]);
  });

  it("hiding more in the audit log loosens; dropping the sink loosens; showing more tightens", () => {
    const audit = (redact: Record<string, "all" | string[]>, sink = "jsonl:a.jsonl") => ({
      audit: { sink, redact },
    });
    expect(kinds(audit({}), audit({ t: ["x"] }))).toEqual([["audit.redact.t", "loosened"]]);
    expect(kinds(audit({ t: ["x"] }), audit({ t: "all" }))).toEqual([["audit.redact.t", "loosened"]]);
    expect(kinds(audit({ t: ["x", "y"] }), audit({ t: ["x"] }))).toEqual([["audit.redact.t", "tightened"]]);
    expect(kinds(audit({ t: ["x"] }), audit({ t: ["y"] }))).toEqual([["audit.redact.t", "loosened"]]);
    expect(kinds(audit({}), {})).toEqual([["audit.sink", "loosened"]]);
    expect(kinds({}, audit({}))).toEqual([["audit.sink", "tightened"]]);
  });
});

describe("diff with settings", () => {
  it("a change of mode alone loosens: the settings and every flipped decision are reported", () => {
    const dir = join(import.meta.dirname, "..", "fixtures", "diff", "mode-observe");
    const base = loadSide(join(dir, "base"));
    const head = loadSide(join(dir, "head"));
    const diff = diffPolicies(base, head);
    expect(diff.settings.map((c) => [c.setting, c.change])).toEqual([
      ["mode", "loosened"],
      ["grants.max_hours", "loosened"],
      ["audit.redact.delete_path", "loosened"],
    ]);
    expect(diff.decisions.length).toBeGreaterThan(0);
    expect(diff.decisions.every((d) => d.before.action === "deny" && d.after.action === "allow")).toBe(true);
    expect(diff.summary.loosened).toBe(diff.decisions.length + 3);
  });
});

describe("compareAliases", () => {
  const alias = (host: ToolAlias["host"], name: string, from: string, tool = "read_file"): ToolAlias => ({
    host,
    name,
    tool,
    arguments: [["path", { kind: "path", name: from }]],
  });
  const kindsOf = (base: readonly ToolAlias[], head: readonly ToolAlias[]) =>
    compareAliases(base, head).map((c) => [c.setting, c.change]);

  it("an alias added loosens, one removed tightens, one mapped differently is reported as loosened", () => {
    const read = alias("claude-code", "Read", "file_path");
    expect(kindsOf([], [read])).toEqual([["aliases.claude-code.Read", "loosened"]]);
    expect(kindsOf([read], [])).toEqual([["aliases.claude-code.Read", "tightened"]]);
    expect(kindsOf([read], [alias("claude-code", "Read", "other")])).toEqual([
      ["aliases.claude-code.Read", "loosened"],
    ]);
    expect(kindsOf([read], [alias("claude-code", "Read", "file_path", "write_file")])).toEqual([
      ["aliases.claude-code.Read", "loosened"],
    ]);
    // The same mapping written again, with another source position: no change.
    expect(kindsOf([read], [{ ...read, source: { file: "b.yaml", line: 9, column: 5 } }])).toEqual([]);
    // Same name, another host: its own alias.
    expect(kindsOf([read], [read, alias("codex", "Read", "file_path")])).toEqual([
      ["aliases.codex.Read", "loosened"],
    ]);
  });

  it("name patterns tried in another order are reported: another alias may now read a name", () => {
    const a = alias("opencode", "{server}_{tool}", "x", "mcp_call");
    const b = alias("opencode", "db_{tool}", "y", "db");
    expect(kindsOf([a, b], [b, a])).toEqual([["aliases.opencode", "loosened"]]);
    expect(kindsOf([a, b], [a, b])).toEqual([]);
  });

  it("diff reports an alias change of the canonical pack with the setting changes", () => {
    const dir = join(import.meta.dirname, "..", "..", "policies", "packs", "agents");
    const base = loadSide(dir);
    const headBundle = { ...base.bundle, aliases: base.bundle.aliases.filter((a) => a.name !== "Bash") };
    const diff = diffPolicies(base, { ...base, bundle: headBundle });
    expect(diff.settings.map((c) => [c.setting, c.change])).toEqual([
      ["aliases.claude-code.Bash", "tightened"],
      ["aliases.codex.Bash", "tightened"],
    ]);
    const back = diffPolicies({ ...base, bundle: headBundle }, base);
    expect(back.summary.loosened).toBe(2);
  });
});
