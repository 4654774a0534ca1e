// init keeps toolgate's state folder out of git: `.toolgate/` is added to .gitignore once, keeping every line.
import { describe, expect, it } from "vitest";
import { gitignoreWithState } from "../../src/scaffold/init-files.js";

describe("gitignoreWithState", () => {
  it("makes a .gitignore of one entry when there is none, and appends to one that lacks it", () => {
    expect(gitignoreWithState(undefined)).toBe(".toolgate/\n");
    expect(gitignoreWithState("")).toBe(".toolgate/\n");
    expect(gitignoreWithState("node_modules/\ndist/\n")).toBe("node_modules/\ndist/\n.toolgate/\n");
    expect(gitignoreWithState("node_modules/")).toBe("node_modules/\n.toolgate/\n");
    expect(gitignoreWithState("a\r\nb\r\n")).toBe("a\r\nb\r\n.toolgate/\n");
  });

  it("leaves a .gitignore that already ignores the folder, in any spelling", () => {
    for (const line of [".toolgate", ".toolgate/", "/.toolgate/", "/.toolgate", "  .toolgate/  "]) {
      expect(gitignoreWithState(`dist/\n${line}\n`)).toBeUndefined();
    }
    // A longer name or a comment is not the folder.
    expect(gitignoreWithState(".toolgate-old/\n# .toolgate/\n")).toBe(
      ".toolgate-old/\n# .toolgate/\n.toolgate/\n",
    );
  });
});
