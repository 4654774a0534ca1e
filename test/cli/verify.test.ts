import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ROOT, runCli, writeTree } from "./cli-helpers.js";

const TOOLS = `tools:
  - name: shell
    description: Run a shell command.
    input_schema:
      type: object
      properties:
        command: { type: string, maxLength: 64 }
      required: [command]
      additionalProperties: false
`;
const POLICY = `version: 1
otherwise:
  shell: ask
rules:
  - id: no-rm
    tools: [shell]
    decision: deny
    when:
      command: { command: ["rm -rf"] }
    reason: no recursive deletes
  - id: ls
    tools: [shell]
    decision: allow
    when:
      command: { regex: "^ls$" }
    reason: ls is fine
`;

describe("toolgate verify", () => {
  let cwd: string;
  beforeEach(() => {
    cwd = process.cwd();
  });
  afterEach(() => {
    process.chdir(cwd);
  });

  function project(properties: string): string {
    const dir = writeTree({
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "tools.yaml": TOOLS,
      "policy.yaml": POLICY,
      "properties.yaml": properties,
    });
    process.chdir(dir);
    return dir;
  }

  it("exits 0 when every property holds", async () => {
    project(`version: 1
properties:
  - id: rm-denied
    tool: shell
    where: { command: { command: ["rm -rf"] } }
    always: deny
`);
    const { code, stdout } = await runCli(["verify", "properties.yaml", "--no-color"]);
    expect(stdout).toContain("holds   rm-denied  properties.yaml:3:5");
    expect(code).toBe(0);
  });

  it("exits 1 with a witness when a property fails, as JSON too", async () => {
    project(`version: 1
properties:
  - id: nothing-allowed
    tool: shell
    never: allow
`);
    const stylish = await runCli(["verify", "properties.yaml", "--no-color"]);
    expect(stylish.stdout).toContain("fails   nothing-allowed");
    expect(stylish.stdout).toContain('shell {"command":"ls"} is decided allow');
    expect(stylish.code).toBe(1);
    const json = await runCli(["verify", "properties.yaml", "--format", "json"]);
    const report = JSON.parse(json.stdout);
    expect(report.results[0]).toMatchObject({ id: "nothing-allowed", status: "fails", line: 3 });
    expect(report.results[0].witness.arguments).toEqual({ command: "ls" });
    expect(json.code).toBe(1);
  });

  it("reads the property files listed under properties: in the config, relative to the config file", async () => {
    const dir = writeTree({
      "conf/toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\nproperties: [props/*.yaml]\n",
      "conf/tools.yaml": TOOLS,
      "conf/policy.yaml": POLICY,
      "conf/props/rm.yaml": `version: 1
properties:
  - id: rm-denied
    tool: shell
    where: { command: { command: ["rm -rf"] } }
    always: deny
`,
    });
    process.chdir(dir);
    const { code, stdout } = await runCli(["verify", "--config", "conf/toolgate.config.yaml", "--no-color"]);
    expect(stdout).toContain("holds   rm-denied  conf/props/rm.yaml:3:5");
    expect(code).toBe(0);
  });

  it("asks for property files when none are given and the config lists none", async () => {
    project("version: 1\nproperties: []\n");
    const { code, stderr } = await runCli(["verify", "--no-color"]);
    expect(stderr).toContain("list them under properties:");
    expect(code).toBe(2);
  });

  it("exits 1 on unknown only with --strict", async () => {
    project(`version: 1
properties:
  - id: redirect-never-allowed
    tool: shell
    where: { command: { regex: ">" } }
    never: allow
`);
    const plain = await runCli(["verify", "properties.yaml", "--no-color"]);
    expect(plain.stdout).toContain("unknown redirect-never-allowed");
    expect(plain.code).toBe(0);
    const strict = await runCli(["verify", "properties.yaml", "--strict", "--format", "github"]);
    expect(strict.stdout).toContain(
      "::error file=properties.yaml,line=3,col=5::property redirect-never-allowed unknown",
    );
    expect(strict.code).toBe(1);
    const sarif = await runCli(["verify", "properties.yaml", "--format", "sarif"]);
    const log = JSON.parse(sarif.stdout);
    expect(log.version).toBe("2.1.0");
    expect(log.runs[0].results[0]).toMatchObject({ ruleId: "property-unknown", level: "warning" });
    expect(log.runs[0].results[0].locations[0].physicalLocation.region).toMatchObject({
      startLine: 3,
      startColumn: 5,
    });
    expect(sarif.code).toBe(0);
  });

  it("exits 2 with each problem at its line and column for a bad property file or an undeclared tool", async () => {
    project(`version: 1
properties:
  - id: bad
    tool: shell
    never: maybe
  - id: two
    tool: nope
    always: deny
`);
    const bad = await runCli(["verify", "properties.yaml", "--no-color"]);
    expect(bad.stdout).toMatch(
      /^ {2}5:12 +error +`never:` takes allow, ask or deny, not "maybe" +property-schema$/m,
    );
    expect(bad.stdout).toMatch(/^ {2}7:11 +error +tool "nope" is not declared .* +property-unknown-tool$/m);
    expect(bad.code).toBe(2);
    project(`version: 1
properties:
  - id: two
    tool: nope
    always: deny
`);
    const undeclared = await runCli(["verify", "properties.yaml", "--format", "json"]);
    expect(JSON.parse(undeclared.stdout).diagnostics).toMatchObject([
      { code: "property-unknown-tool", file: "properties.yaml", line: 4, column: 11 },
    ]);
    expect(undeclared.code).toBe(2);
    const missing = await runCli(["verify", "gone.yaml"]);
    expect(missing.code).toBe(2);
  });

  it("prints a configuration's errors in the format asked for, one JSON document with --format json", async () => {
    const dir = project(`version: 1
properties:
  - id: bad
    tool: shell
    never: maybe
`);
    writeFileSync(join(dir, "policy.yaml"), POLICY.replace("    reason: ls is fine\n", ""));
    const json = await runCli(["verify", "properties.yaml", "--format", "json"]);
    expect(JSON.parse(json.stdout).diagnostics).toMatchObject([
      { code: "config-schema", file: "policy.yaml", line: 11, column: 5 },
    ]);
    expect(json.stderr).toContain("the property files have 1 problem(s) too");
    expect(json.code).toBe(2);
    const stylish = await runCli(["verify", "properties.yaml", "--no-color"]);
    expect(stylish.stdout).toMatch(/^ {2}11:5 +error .*"reason".* +config-schema$/m);
    expect(stylish.stdout).toMatch(/^ {2}5:12 +error .* +property-schema$/m);
    const explain = await runCli(["explain", "shell", "--args", '{"command":"ls"}', "--format", "json"]);
    expect(JSON.parse(explain.stdout).diagnostics[0].code).toBe("config-schema");
  });

  it("verifies the reference policy's properties", async () => {
    process.chdir(ROOT);
    const { code, stdout } = await runCli(["verify", "policies/properties/reference.yaml", "--no-color"]);
    expect(stdout, stdout).toContain("13 properties: 13 hold, 0 fail, 0 unknown");
    expect(code, stdout).toBe(0);
  });

  it.each(["claude-code", "gemini-cli", "agents"])("verifies the %s pack's properties", async (pack) => {
    process.chdir(ROOT);
    const { code, stdout } = await runCli([
      "verify",
      "--config",
      `policies/packs/${pack}/toolgate.config.yaml`,
      `policies/packs/${pack}/properties.yaml`,
      "--no-color",
    ]);
    expect(stdout, stdout).toMatch(/\d+ hold, 0 fail, 0 unknown/);
    expect(code, stdout).toBe(0);
  });
});
