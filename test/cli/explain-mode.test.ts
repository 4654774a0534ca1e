/** `toolgate explain` shows the configured mode and what a controller in that mode does with the decision. */
import { join } from "node:path";
import { loadPolicy } from "toolgate";
import { describe, expect, it } from "vitest";
import { runCli, writeTree } from "./cli-helpers.js";

const files = (mode: string) => ({
  "toolgate.config.yaml": `tools: [tools.yaml]\npolicy: policy.yaml\n${mode}`,
  "tools.yaml": [
    "tools:",
    "  - name: deploy",
    "    description: Deploy.",
    "    input_schema: { type: object, additionalProperties: false }",
    "  - name: erase_disk",
    "    description: Erase.",
    "    input_schema: { type: object, additionalProperties: false }",
    "",
  ].join("\n"),
  "policy.yaml":
    "version: 1\nask: [deploy]\ndeny: [erase_disk]\nreasons:\n  deploy: deploys reach customers\n",
});

async function explain(mode: string, tool: string, json = false) {
  const dir = writeTree(files(mode));
  const config = join(dir, "toolgate.config.yaml");
  const run = await runCli(["explain", tool, "--config", config, ...(json ? ["--format", "json"] : [])]);
  return { ...run, fingerprint: (await loadPolicy({ config })).fingerprint };
}

describe("explain and the mode", () => {
  it("observe: says the call runs anyway and what the audit log records", async () => {
    const text = await explain("mode: observe\n", "erase_disk");
    expect(text.code).toBe(0);
    expect(text.stdout.split("\n").slice(0, 2)).toEqual([
      "erase_disk: DENY — tool erase_disk is denied by the policy",
      "mode: observe — the call runs anyway, and the audit log records that the policy denies it (wouldHave: deny)",
    ]);
    const json = await explain("mode: observe\n", "erase_disk", true);
    expect(JSON.parse(json.stdout)).toMatchObject({
      action: "deny",
      mode: "observe",
      outcome: "allow",
      fingerprint: json.fingerprint,
    });
  });

  it("ci: an ask is denied because no person is present", async () => {
    const text = await explain("mode: ci\n", "deploy");
    expect(text.stdout.split("\n")[1]).toBe("mode: ci — no person is present, so the call is denied");
    const json = await explain("mode: ci\n", "deploy", true);
    expect(JSON.parse(json.stdout)).toMatchObject({ action: "ask", mode: "ci", outcome: "deny" });
  });

  it("enforce: no mode line, and outcome is the decision", async () => {
    const text = await explain("", "deploy");
    expect(text.stdout).not.toContain("mode:");
    const json = await explain("", "deploy", true);
    expect(JSON.parse(json.stdout)).toMatchObject({ action: "ask", mode: "enforce", outcome: "ask" });
  });
});
