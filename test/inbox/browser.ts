/** Chromium for the inbox tests: Debian's package, driven by playwright-core (no browser download). */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { describe, it } from "vitest";

/** The browser binary (`TOOLGATE_CHROMIUM` overrides the Debian path). */
export const CHROMIUM = process.env.TOOLGATE_CHROMIUM ?? "/usr/bin/chromium";

/**
 * `describe` for tests that need a real browser: runs them when chromium is installed, fails in CI when it is
 * not (a missing browser must not pass as a skip), and skips them with instructions otherwise.
 */
export function describeBrowser(name: string, body: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(name, body);
  } else if (process.env.CI) {
    describe(name, () => {
      it("has chromium", () => {
        throw new Error(`${CHROMIUM} is missing in CI; install it with apt-get install -y chromium`);
      });
    });
  } else {
    console.warn(`skipping "${name}": ${CHROMIUM} is missing; install it with apt-get install -y chromium`);
    describe.skip(`${name} (needs chromium: apt-get install -y chromium)`, body);
  }
}

/** Launches chromium headless. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
}
