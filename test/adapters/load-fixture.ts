import { readFileSync } from "node:fs";

/** Parses a JSON fixture from test/fixtures/adapters/. */
export function loadFixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/adapters/${name}`, import.meta.url), "utf8"));
}
