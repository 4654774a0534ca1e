/**
 * Every error toolgate throws is a `ToolgateError` with a code: no `throw new Error(…)`, `TypeError`,
 * `RangeError` or `SyntaxError` anywhere in the sources, and no error class of its own outside the
 * `ToolgateError` family (except `ToolFailure`, which handlers throw). Parser-internal signals that never leave
 * their module (`RegexSyntaxError`, `ShellSyntaxError`) are not errors and are caught where they are thrown.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import {
  ApprovalError,
  InvalidOptionError,
  isToolgateError,
  MemoryApprovalStore,
  PendingApprovals,
  ToolgateError,
} from "toolgate";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

// The inbox page's script runs in the browser; its `throw new Error` is not toolgate's.
const BROWSER_SCRIPT = "inbox/html.ts";

describe("errors toolgate throws", () => {
  it("are never a bare Error, TypeError, RangeError or SyntaxError", () => {
    const found: string[] = [];
    for (const file of sources(SRC)) {
      const name = relative(SRC, file);
      if (name === BROWSER_SCRIPT) continue;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          if (/new (Error|TypeError|RangeError|SyntaxError|ReferenceError)\(/.test(line)) {
            found.push(`${name}:${index + 1}: ${line.trim()}`);
          }
        });
    }
    expect(found).toEqual([]);
  });

  it("come from classes in the ToolgateError family (ToolFailure aside)", () => {
    const found: string[] = [];
    for (const file of sources(SRC)) {
      for (const match of readFileSync(file, "utf8").matchAll(/class (\w+) extends (\w+)/g)) {
        const [, name, base] = match;
        if (base === "Error" && name !== "ToolgateError" && name !== "ToolFailure") {
          found.push(`${relative(SRC, file)}: ${name} extends Error`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it("carry their code and keep their message", () => {
    const thrown = (f: () => unknown): unknown => {
      try {
        f();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const ttl = thrown(() => new PendingApprovals({ ttlMs: 0 }));
    expect(ttl).toBeInstanceOf(InvalidOptionError);
    expect(ttl).toMatchObject({
      code: "invalid-option",
      name: "InvalidOptionError",
      message: "ttlMs must be a positive number of milliseconds, got 0",
    });
    const cap = thrown(() => new MemoryApprovalStore({ maxOpenRequests: 0 }));
    expect(isToolgateError(cap)).toBe(true);
    expect(new ApprovalError("expired", "a1", "gone")).toBeInstanceOf(ToolgateError);
  });
});
