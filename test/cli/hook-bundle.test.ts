/**
 * The hook's slow path as the build bundles it (`dist/cli/hook.bundle.js`, with ajv inside) decides as the
 * sources do. ajv's runtime helpers stay ajv's own modules there, so that toolgate's JSON equality reaches the
 * bundled ajv: an argument `{"toString": "a"}` equals that enum value (ajv's own equality calls `toString`), and
 * `{"constructor": {}}` equals itself; and the controller cache's module is written from the validators the load
 * compiled, which refer to those helpers by identity.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadHookPolicyForCache } from "../../src/cli/hook.js";
import { assertBuilt, ROOT } from "./cli-helpers.js";

type Load = typeof loadHookPolicyForCache;

let project: string;
let bundled: Load;

beforeAll(async () => {
  assertBuilt();
  project = mkdtempSync(join(tmpdir(), "toolgate-hook-bundle-"));
  writeFileSync(join(project, "toolgate.config.yaml"), "tools: [tools.yaml]\npolicy: policy.yaml\n");
  writeFileSync(
    join(project, "tools.yaml"),
    `tools:
  - name: pick
    description: Picks a value.
    input_schema:
      type: object
      properties:
        v: { enum: [{ toString: a }, { constructor: {} }, [1, { valueOf: 2 }]] }
      required: [v]
      additionalProperties: false
`,
  );
  writeFileSync(
    join(project, "policy.yaml"),
    "version: 1\nrules:\n  - id: pick-ok\n    tools: [pick]\n    decision: allow\n    reason: ok\n",
  );
  const url = pathToFileURL(join(ROOT, "dist/cli/hook.bundle.js")).href;
  bundled = ((await import(url)) as { loadHookPolicyForCache: Load }).loadHookPolicyForCache;
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

const ARGUMENTS = [
  { v: { toString: "a" } },
  { v: { constructor: {} } },
  { v: [1, { valueOf: 2 }] },
  { v: { toString: "b" } },
  { v: "a" },
];

/** What a load decides for each argument: the action, or the refusal's text. */
async function decisions(load: Load): Promise<unknown[]> {
  const loaded = await load(join(project, "toolgate.config.yaml"), project);
  if (!loaded.ok) throw new Error(loaded.reason);
  expect(loaded.cache?.module).toContain("ajvEqual");
  return ARGUMENTS.map((args, index) => {
    const explained = loaded.policy.controller.explain({
      callId: `c${index}`,
      toolName: "pick",
      arguments: args,
    });
    return "decision" in explained ? explained.decision.action : explained.content;
  });
}

describe("the bundled slow path of toolgate hook", () => {
  it("validates with JSON equality and writes the cache's module, as the sources do", async () => {
    const fromSources = await decisions(loadHookPolicyForCache);
    expect(fromSources.slice(0, 3)).toEqual(["allow", "allow", "allow"]);
    expect(fromSources.slice(3).every((d) => d !== "allow")).toBe(true);
    expect(await decisions(bundled)).toEqual(fromSources);
  });
});
