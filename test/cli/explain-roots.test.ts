/**
 * `toolgate explain --root`: path arguments read against the roots as `toolgate mcp-proxy --root` reads them; the
 * output shows the path as decided and the path as sent.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeRootsConfig } from "../mcp-proxy/roots-fixture.js";
import { assertBuilt, toolgate } from "./cli-helpers.js";

let dir: string;
let config: string;
beforeAll(() => {
  assertBuilt();
  ({ dir, config } = writeRootsConfig());
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("toolgate explain --root", () => {
  it("decides an absolute path under a root relative to it, and shows both", () => {
    const args = [
      "explain",
      "read_text_file",
      "--config",
      config,
      "--args",
      '{"path":"/srv/project/src/a.txt"}',
    ];
    const rooted = toolgate([...args, "--root", "/srv/project"], dir);
    expect(rooted.code, rooted.stderr).toBe(0);
    expect(rooted.stdout).toMatch(/^read_text_file: ALLOW — reads inside src\/ run$/m);
    expect(rooted.stdout).toContain('read: path "/srv/project/src/a.txt" as "src/a.txt"');
    const json = JSON.parse(toolgate([...args, "--root", "/srv/project", "--format", "json"], dir).stdout);
    expect(json).toMatchObject({
      action: "allow",
      ruleIds: ["read-src"],
      arguments: { path: "src/a.txt" },
      sentArguments: { path: "/srv/project/src/a.txt" },
    });
    const plain = toolgate(args, dir);
    expect(plain.stdout).toMatch(/^read_text_file: ASK/m);
    expect(plain.stdout).not.toContain("read: ");
  });

  it("leaves a path above the root absolute: never a certain allow", () => {
    const run = toolgate(
      [
        "explain",
        "read_text_file",
        "--config",
        config,
        "--root",
        "/srv/project",
        "--args",
        '{"path":"/srv/project/../x"}',
      ],
      dir,
    );
    expect(run.stdout).toMatch(/^read_text_file: ASK/m);
  });
});
