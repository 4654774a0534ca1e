/**
 * A missing optional package is a toolgate error that names what to install, never an "internal error": the
 * CLI run with `better-sqlite3` hidden (a preload makes it unresolvable, as after `npm install --omit=optional`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN } from "./cli-helpers.js";

const dir = mkdtempSync(join(tmpdir(), "toolgate-optional-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HIDE = `
const Module = require("node:module");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === "better-sqlite3") {
    const error = new Error("Cannot find module '" + request + "'");
    error.code = "MODULE_NOT_FOUND";
    throw error;
  }
  return resolve.call(this, request, ...rest);
};
`;

describe("a missing optional package", () => {
  beforeAll(assertBuilt);

  it("is reported as what to install (exit 2), not as an internal error", () => {
    const preload = join(dir, "hide-better-sqlite3.cjs");
    writeFileSync(preload, HIDE);
    const run = spawnSync(
      process.execPath,
      ["--require", preload, BIN, "approvals", "list", "--store", `sqlite:${join(dir, "state.db")}`],
      { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).not.toContain("internal error");
    expect(run.stderr).toContain('need the package "better-sqlite3"');
    expect(run.stderr).toContain("npm install better-sqlite3");
  });

  it("whose native part cannot be loaded is reported as what to rebuild (exit 2), not as an internal error", () => {
    const preload = join(dir, "hide-bindings.cjs");
    writeFileSync(
      preload,
      HIDE.replace('request === "better-sqlite3"', 'request === "bindings"').replace(
        '"Cannot find module \'" + request + "\'"',
        '"Could not locate the bindings file. Tried:\\n → build/better_sqlite3.node"',
      ),
    );
    const run = spawnSync(
      process.execPath,
      ["--require", preload, BIN, "approvals", "list", "--store", `sqlite:${join(dir, "native.db")}`],
      { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).not.toContain("internal error");
    expect(run.stderr).toBe(
      `toolgate: sqlite: stores and sinks need the native module of the package "better-sqlite3", which could not be loaded for Node ${process.version} (Could not locate the bindings file. Tried:); build it again with: npm rebuild better-sqlite3 (or reinstall: npm install better-sqlite3)\n`,
    );
  });
});
