import { it } from "vitest";
import { loadPolicyResultSync } from "../../src/config/load-policy.js";
import { type Property, Verifier } from "../../src/verify/verify-properties.js";

it("scratch", () => {
  const loaded = loadPolicyResultSync({});
  if (loaded.bundle === undefined) throw new Error("no bundle");
  const v = new Verifier(loaded.bundle, loaded.validators);
  const props: Property[] = [
    {
      id: "rm-rf-denied",
      tools: ["run_shell"],
      where: { command: { command: ["rm -rf"] } },
      kind: "always",
      action: "deny",
    },
  ];
  for (const p of props) {
    const t0 = performance.now();
    const r = v.verifyOne(p);
    console.log(p.id, Math.round(performance.now() - t0), "ms", JSON.stringify(r));
  }
}, 600000);
