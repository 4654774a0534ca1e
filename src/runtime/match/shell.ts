// The `command` operator: the shell reader (union of readings, for deny and ask), the safe subset (for
// allow), the security tables and the matcher live in ./shell/; this module is their one entry point.

export {
  type CommandMatch,
  matchCommand,
  matchCommandPrefix,
  type PrefixInput,
} from "./shell/matcher.js";
export { CommandPrefixSet } from "./shell/prefix-set.js";
export { ShellReadMemo } from "./shell/read-memo.js";
export {
  BASH_DIALECT,
  type CommandPrefix,
  type CommandPrefixSpec,
  DASH_DIALECT,
  type ParseCommandPrefixSpecResult,
  type ParseShellResult,
  POSIX_BASH_DIALECT,
  parseCommandPrefix,
  parseCommandPrefixSpec,
  parseShellCommand,
  readShellCommand,
  type ShellDialect,
  type ShellWord,
  type SimpleCommand,
  splitCommandPrefix,
} from "./shell/reader.js";
export { readSafeSubset, type SafeCommand } from "./shell/safe-subset.js";
export { type CommandTrace, type TracedCommand, traceCommand } from "./shell/trace.js";
