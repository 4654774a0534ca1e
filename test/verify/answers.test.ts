/**
 * The answers of `verify` on a fixed corpus of shell, path and URL policies (answer-corpus.ts), against a snapshot.
 * The engine's other tests check that its answers are sound (a `holds` never contradicted, a witness confirmed);
 * this one pins them, witnesses and reasons included, so that a change which makes an answer less precise (a
 * `fails` or `holds` turned `unknown`), or picks another witness, is seen. Every `fails` here is also checked
 * against the controller, so the snapshot holds no witness that does not break its property.
 */
import { describe, expect, it } from "vitest";
import { applyMode } from "../../src/runtime/mode.js";
import { ToolPolicy } from "../../src/runtime/policy.js";
import type { ConditionSpec } from "../../src/runtime/types.js";
import { type Property, Verifier } from "../../src/verify/verify-properties.js";
import { answerCorpus } from "./answer-corpus.js";
import { loadFromText } from "./helpers.js";

const CASES = answerCorpus(Number(process.env.TOOLGATE_ANSWER_CASES ?? 20));

describe("verify's answers on the corpus", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const { bundle, validators } = loadFromText(c.tools, c.policy);
    const tool = bundle.tools[0]?.name as string;
    const properties: Property[] = c.properties.map((p, i) => ({
      id: `p${i}`,
      tools: [tool],
      ...(p.where === undefined ? {} : { where: p.where as ConditionSpec }),
      kind: p.kind,
      action: p.action,
    }));
    const results = new Verifier(bundle, validators).verify(properties);
    const controller = ToolPolicy.fromStatements(bundle.statements);
    const answers = results.map((r, i) => {
      const p = c.properties[i];
      if (r.status === "fails") {
        const decided = applyMode(
          controller.decide({ callId: "c", toolName: tool, arguments: r.witness?.arguments }, {}),
          bundle.mode,
        ).decision.action;
        expect(decided, `${JSON.stringify(p)}: ${JSON.stringify(r.witness)}`).toBe(r.witness?.decision);
        expect(p?.kind === "never" ? decided === p.action : decided !== p?.action).toBe(true);
        return `${r.id} fails ${JSON.stringify(r.witness?.arguments)} ${decided}`;
      }
      return r.status === "holds" ? `${r.id} holds` : `${r.id} unknown: ${r.reason}`;
    });
    expect(answers).toMatchSnapshot();
  });
});
