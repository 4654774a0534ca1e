/**
 * The recorded hook payloads under test/fixtures/<agent>/hook/<case>/: a payload (payload.json, or payload.txt
 * for text that is not one) and expected.json. A folder the harness cannot map fails, never skips.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

/** A case's expected outcome: the exit code, and the decision with a text its reason holds, or a stderr text. */
export interface HookExpected {
  readonly exit: 0 | 2;
  readonly decision?: "allow" | "ask" | "deny";
  readonly reason?: string;
  readonly stderr?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** Reads the case `name` under `fixtures`; throws on a folder holding anything else. */
export function readHookCase(fixtures: string, name: string): { input: string; expected: HookExpected } {
  const dir = join(fixtures, name);
  const json = join(dir, "payload.json");
  const txt = join(dir, "payload.txt");
  const files = readdirSync(dir).sort();
  const known = ["expected.json", existsSync(json) ? "payload.json" : "payload.txt"];
  if (files.join(",") !== known.sort().join(",")) {
    throw new Error(
      `${name}: expected exactly expected.json and payload.json or payload.txt, found ${files}`,
    );
  }
  return {
    input: readFileSync(existsSync(json) ? json : txt, "utf8"),
    expected: JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as HookExpected,
  };
}

// A `__proto__` key anywhere in the payload is refused outright (exit 2: the call is blocked), before any
// tool is looked at; fast-check's dictionaries can generate one.
export const refusedOutright = (input: unknown): boolean => JSON.stringify(input).includes('"__proto__":');

/** The answer for a call the pack cannot read: `unreadable` (exit 0), or blocked when refused outright. */
export function expectUnreadable(
  result: { code: number; decision: string },
  unreadable: string,
  input: unknown,
) {
  if (refusedOutright(input)) {
    expect(result.code).toBe(2);
    expect(result.decision).toBe("blocked");
  } else {
    expect(result.code).toBe(0);
    expect(result.decision).toBe(unreadable);
  }
}
