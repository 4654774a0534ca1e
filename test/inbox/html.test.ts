import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeControl } from "../../src/diagnostics/escape-control.js";
import { escapeHtml, html, renderApproval } from "../../src/inbox/html.js";
import type { StoredApproval } from "../../src/runtime/approval-store.js";

const decode = (text: string): string =>
  text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name] as string,
  );

// Strings rich in what HTML and terminals treat specially.
const nasty = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      "<",
      ">",
      "&",
      '"',
      "'",
      "/",
      "=",
      "`",
      "\u0000",
      "\n",
      "\u001b",
      "\u202e",
      "\u2066",
      "\u0085",
      "script",
      "onerror",
    ),
    fc.string({ maxLength: 1 }),
  ),
  maxLength: 40,
});

describe("inbox HTML escaping", () => {
  // Property: escaped text holds no character that can open a tag or end an attribute, and decodes back to
  // the text (with control and bidirectional characters shown as \uXXXX).
  it("escapeHtml leaves no markup and loses nothing", () => {
    fc.assert(
      fc.property(nasty, (text) => {
        const escaped = escapeHtml(text);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(decode(escaped)).toBe(escapeControl(text, { keepNewlines: true }));
      }),
      { numRuns: 2000 },
    );
  });

  // Property: whatever a request holds, its rendering has exactly the tags of the template.
  it("a rendered request has the template's tags whatever its tool, ids, arguments, context and reason", () => {
    const tags = (markup: string) =>
      (markup.match(/<[a-z/!][^>]*>/gi) ?? []).map((t) => t.replace(/\s.*$/s, ""));
    const render = (s: string, session: string) => {
      const approval: StoredApproval = {
        state: "pending",
        updatedAt: 0,
        request: {
          kind: "approval-request",
          approvalId: `apr_${s}`,
          call: { callId: s, toolName: s, arguments: { [s]: s, list: [s] } },
          reason: s,
          ruleIds: [s],
          argumentsHash: s,
          policyFingerprint: s,
          createdAt: 0,
          expiresAt: 60_000,
          context: { session_id: session, [s]: s },
        },
      };
      return renderApproval(approval, {
        csrf: s,
        approver: s,
        now: 0,
        maxGrantMs: 3_600_000,
        sessionKey: "session_id",
        redact: new Map(),
        statements: new Map([[s, { action: "ask", reason: s, source: { file: s, line: 1 } }]]),
      }).toString();
    };
    const expected = tags(render("plain", "s1"));
    fc.assert(
      fc.property(nasty, (s) => {
        expect(tags(render(s, "s1"))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
    expect(html`<b>${"<i>"}</b>`.toString()).toBe("<b>&lt;i&gt;</b>");
  });
});
