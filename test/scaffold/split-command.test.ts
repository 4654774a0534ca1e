import { describe, expect, it } from "vitest";
import { splitCommand } from "../../src/scaffold/tool-sources.js";

describe("splitCommand (--from-mcp)", () => {
  it("reads words and quotes as a POSIX shell does", () => {
    expect(splitCommand("npx -y @modelcontextprotocol/server-filesystem /tmp/a")).toEqual([
      "npx",
      "-y",
      "@modelcontextprotocol/server-filesystem",
      "/tmp/a",
    ]);
    expect(splitCommand(`node "my server.js" 'a b' c\\ d`)).toEqual(["node", "my server.js", "a b", "c d"]);
  });

  it.each([
    ["", "the command is empty"],
    ["node a.js; rm -rf /", "more than one command"],
    ["node a.js | tee log", "more than one command"],
    ["node $HOME/a.js", "would be expanded by a shell"],
    ["node ~/a.js", "would be expanded by a shell"],
    ["node *.js", "would be expanded by a shell"],
    ["TOKEN=x node a.js", "it sets variables"],
    ["node a.js > log", "it has a redirection"],
    ["node 'a.js", "cannot be read as a command"],
  ])("refuses %j, which a shell would read differently than toolgate starts it", (command, why) => {
    expect(() => splitCommand(command)).toThrow(why);
  });
});
