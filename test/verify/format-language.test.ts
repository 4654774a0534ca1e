/**
 * The languages the verifier reads a string `format` as (schema-facts.ts `formatLanguage`): each holds every string
 * ajv-formats' full format accepts, so a `holds` over a field with a format stays sound, and for `email`, `ipv4`,
 * `uuid` and `date` it is the format exactly. Compared with ajv-formats itself on strings built from each format's
 * own characters, and end to end on a policy that reads such fields.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolPolicy } from "../../src/runtime/policy.js";
import { formatLanguage, passesFormat } from "../../src/verify/schema-facts.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText } from "./helpers.js";

const RUNS = Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200);

/** Each format's characters, pieces and examples, from which strings near its edges are built. */
const FORMATS: Record<string, { chars: string; pieces: string[]; exact: boolean }> = {
  email: {
    chars: "aZ9.-_@+!",
    pieces: ["a@b.co", "x.y@a-b.c", "@", "..", "a-", "-a", "K", "ſ"],
    exact: true,
  },
  hostname: {
    chars: "aZ9.-",
    pieces: ["a.b", "example.com.", "-a", "a-", "..", "a".repeat(63)],
    exact: false,
  },
  ipv4: { chars: "0129.5", pieces: ["127.0.0.1", "255.", "256", "01", "1.", "25"], exact: true },
  uuid: {
    chars: "0aF-9",
    pieces: [
      "00000000-0000-0000-0000-000000000000",
      "00000000-",
      "0000-",
      "000000000000",
      "urn:uuid:",
      "URN:UUID:",
      "g",
    ],
    exact: true,
  },
  date: {
    chars: "0129-",
    pieces: ["2024-02-29", "2023-02-29", "1900-", "2000-", "-02-", "-04-31", "-12-31", "-13-", "-00-"],
    exact: true,
  },
};

const textOf = (chars: string, pieces: string[]) =>
  fc
    .array(fc.oneof(fc.constantFrom(...chars.split("")), fc.constantFrom(...pieces)), { maxLength: 8 })
    .map((parts) => parts.join(""));

describe("the languages of string formats", () => {
  for (const [format, { chars, pieces, exact }] of Object.entries(FORMATS)) {
    it(`${format}: holds every string the format accepts${exact ? ", and only those" : ""}`, () => {
      const language = formatLanguage(format);
      if (language === undefined) throw new Error(`${format} has a language`);
      const re = new RegExp(language.pattern, language.flags);
      let accepted = 0;
      fc.assert(
        fc.property(textOf(chars, pieces), (s) => {
          const passes = passesFormat(format, s);
          if (passes) accepted++;
          if (passes) expect(re.test(s), JSON.stringify(s)).toBe(true);
          if (exact) expect(re.test(s), JSON.stringify(s)).toBe(passes);
        }),
        { numRuns: RUNS * 10 },
      );
      expect(accepted).toBeGreaterThan(0);
    });
  }

  it("the dates of every month and leap year are the format's", () => {
    const language = formatLanguage("date");
    if (language === undefined) throw new Error("date has a language");
    const re = new RegExp(language.pattern, language.flags);
    for (const year of [
      "0000",
      "0004",
      "0100",
      "0400",
      "1900",
      "1996",
      "2000",
      "2023",
      "2024",
      "2100",
      "9996",
    ])
      for (let month = 0; month <= 13; month++)
        for (let day = 0; day <= 32; day++) {
          const s = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
          expect(re.test(s), s).toBe(passesFormat("date", s));
        }
  });

  it("a format not read as a language is left to the validator", () => {
    expect(formatLanguage("uri")).toBeUndefined();
    expect(formatLanguage("time")).toBeUndefined();
    expect(formatLanguage(3)).toBeUndefined();
    expect(formatLanguage("toString")).toBeUndefined();
  });
});

describe("verify on fields with a format", () => {
  const TOOLS = JSON.stringify({
    tools: [
      {
        name: "notify",
        description: "Mails someone.",
        input_schema: {
          type: "object",
          properties: { to: { type: "string", format: "email", maxLength: 254 } },
          required: ["to"],
          additionalProperties: false,
        },
      },
      {
        name: "schedule",
        description: "Plans a day.",
        input_schema: {
          type: "object",
          properties: { day: { type: "string", format: "date", maxLength: 10 } },
          required: ["day"],
          additionalProperties: false,
        },
      },
    ],
  });
  const POLICY = JSON.stringify({
    version: 1,
    otherwise: { notify: "deny", schedule: "allow" },
    rules: [
      {
        id: "internal",
        tools: ["notify"],
        decision: "allow",
        when: { to: { regex: "@example\\.com$" } },
        reason: "r",
      },
      {
        id: "closed",
        tools: ["schedule"],
        decision: "deny",
        when: { day: { regex: "^2024-" } },
        reason: "r",
      },
    ],
  });
  const { bundle, validators } = loadFromText(TOOLS, POLICY);
  const verify = (tool: string, where: unknown, kind: "never" | "always", action: string) => {
    const [result] = new Verifier(bundle, validators).verify([
      {
        id: "p",
        tools: [tool],
        ...(where === undefined ? {} : { where: where as never }),
        kind,
        action: action as never,
      },
    ]);
    if (result?.witness !== undefined) {
      expect(validators.get(tool)?.(result.witness.arguments).ok).toBe(true);
      const decision = ToolPolicy.fromStatements(bundle.statements).decide({
        callId: "c",
        toolName: tool,
        arguments: result.witness.arguments,
      });
      expect(decision.action).toBe(result.witness.decision);
    }
    return result;
  };

  it("finds valid addresses and proves what no valid address can be", () => {
    expect(verify("notify", undefined, "never", "deny")?.status).toBe("fails");
    // The case of a domain is the sender's; the rule reads it as written.
    const anyCase = verify(
      "notify",
      { to: { regex: { pattern: "@example\\.com$", flags: "i" } } },
      "always",
      "allow",
    );
    expect(anyCase?.status).toBe("fails");
    expect(verify("notify", { to: { regex: "@.*@" } }, "never", "allow")?.status).toBe("holds");
  });

  it("proves what every valid date of a year gets", () => {
    expect(verify("schedule", { day: { prefix: "2024" } }, "always", "deny")?.status).toBe("holds");
    expect(verify("schedule", { day: { prefix: "2023" } }, "always", "allow")?.status).toBe("holds");
    expect(verify("schedule", { day: { prefix: "202" } }, "always", "allow")?.status).toBe("fails");
  });
});
