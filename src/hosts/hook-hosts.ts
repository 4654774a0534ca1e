/**
 * The registry of hook hosts: `toolgate hook <name>` looks its host up here, and so does the fast hook entry.
 * Adding a hook host is one file in this folder and one line here (see docs/adding-a-host.md).
 */
import { claudeCodeHost } from "./claude-code.js";
import { codexHost } from "./codex.js";
import { cursorHost } from "./cursor.js";
import { geminiCliHost } from "./gemini-cli.js";
import type { HookHost } from "./hook-host.js";

/** Every hook host, by command name, in the order `toolgate hook --help` lists them. */
export const HOOK_HOSTS: ReadonlyMap<string, HookHost> = new Map(
  [claudeCodeHost, geminiCliHost, codexHost, cursorHost].map((host) => [host.name, host]),
);
