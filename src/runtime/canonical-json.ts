import { createHash } from "node:crypto";
import { ToolgateError } from "./errors.js";

/**
 * JSON with object keys sorted by code unit and no insignificant whitespace, so that equal data gives equal
 * text on every machine. `undefined` properties are left out, as `JSON.stringify` does.
 * @throws ToolgateError `invalid-json-value` for values JSON cannot represent (functions, symbols, bigints, non-finite numbers, cycles).
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

function write(value: unknown, seen: Set<object>): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value))
        throw new ToolgateError("invalid-json-value", `cannot encode ${value} as JSON`);
      return JSON.stringify(value);
    case "object": {
      if (seen.has(value))
        throw new ToolgateError("invalid-json-value", "cannot encode a cyclic value as JSON");
      seen.add(value);
      let out: string;
      if (Array.isArray(value)) {
        out = `[${value.map((v) => (v === undefined ? "null" : write(v, seen))).join(",")}]`;
      } else {
        const record = value as Record<string, unknown>;
        const keys = Object.keys(record).sort();
        const parts: string[] = [];
        for (const key of keys) {
          const v = record[key];
          if (v !== undefined) parts.push(`${JSON.stringify(key)}:${write(v, seen)}`);
        }
        out = `{${parts.join(",")}}`;
      }
      seen.delete(value);
      return out;
    }
    default:
      throw new ToolgateError("invalid-json-value", `cannot encode a ${typeof value} as JSON`);
  }
}

/** `sha256:` followed by the hex SHA-256 of the canonical JSON of `value`. */
export function hashCanonical(value: unknown): string {
  return `sha256:${createHash("sha256").update(canonicalJson(value)).digest("hex")}`;
}
