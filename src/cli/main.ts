/**
 * The `toolgate` command line. One file per command; this file wires them to commander and maps every
 * outcome to the exit codes of DESIGN.md section 7: 0 clean, 1 findings, 2 usage error, config not found
 * or internal error. No stack trace is printed unless TOOLGATE_DEBUG is set.
 */
import { Command, CommanderError, Option } from "commander";
import { UNREADABLE_OPTION } from "../hosts/hook-host.js";
import { HOOK_HOSTS } from "../hosts/hook-hosts.js";
import { isToolgateError } from "../runtime/errors.js";
import { EXIT, printError, toolVersion, UsageError } from "./common.js";

/** Collects a repeatable option's values. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

const formatOption = (formats: readonly string[], fallback = "stylish") =>
  new Option("--format <format>", `output format: ${formats.join(", ")}`).default(fallback);

/** Builds the program; each action stores its exit code in `state`. */
export function buildProgram(state: { code: number }): Command {
  const program = new Command("toolgate")
    .description("Lint, test, explain and compile toolgate policies for model tool calls.")
    .version(toolVersion(), "-v, --version")
    .showHelpAfterError()
    .exitOverride();
  program
    .command("lint")
    .description(
      "check the configuration, tool files, policy and policy tests; report every problem (with FILES, only theirs)",
    )
    .argument("[files...]", "report only for these files, each linted with the configuration it belongs to")
    .option("--config <path>", "configuration file (default: discovered from the working directory)")
    .addOption(formatOption(["stylish", "json", "sarif", "github", "junit"]))
    .option("--max-warnings <n>", "exit 1 when there are more warnings than this")
    .option("--no-color", "no ANSI colours")
    .action(async (files: string[], options) => {
      const { runLint } = await import("./lint.js");
      state.code = await runLint(files, options);
    });
  program
    .command("verify")
    .description(
      "prove properties of the policy (never/always a decision) for every valid call: holds, fails with a witness, or unknown",
    )
    .argument(
      "[files...]",
      "property files (YAML); default: those listed under properties: in the configuration",
    )
    .option("--config <path>", "configuration file (default: discovered from the working directory)")
    .addOption(formatOption(["stylish", "json", "sarif", "github"]))
    .option("--strict", "exit 1 when a property is unknown")
    .option("--no-color", "no ANSI colours")
    .action(async (files: string[], options) => {
      const { runVerify } = await import("./verify.js");
      state.code = await runVerify(files, options);
    });
  program
    .command("test")
    .description("run the policy test files through the controller's decide code")
    .option("--config <path>", "configuration file")
    .addOption(formatOption(["stylish", "json", "junit"]))
    .option("--coverage", "list the rules and set entries that no test case exercised")
    .option("--min-coverage <percent>", "exit 1 when statement coverage is below this")
    .option("--no-color", "no ANSI colours")
    .action(async (options) => {
      const { runTest } = await import("./test.js");
      state.code = await runTest(options);
    });
  program
    .command("explain")
    .description("show the decision for one call, its reason and every statement considered")
    .argument("<tool>", "tool name (with --host: the host's tool name)")
    .option("--config <path>", "configuration file")
    .option("--args <json>", "arguments as JSON, or @file.json")
    .option("--context <json>", "caller context as JSON, or @file.json")
    .option(
      "--trace",
      "for each rule, which condition was true, false or a maybe (and for command, which prefix)",
    )
    .option(
      "--root <dir>",
      "read absolute path arguments under this directory relative to it, as mcp-proxy --root does; repeatable",
      collect,
    )
    .option(
      "--host <host>",
      "read the tool name as this host's tool (claude-code, gemini-cli, codex, cursor, opencode), through the aliases",
    )
    .option(
      "--project <dir>",
      "with --host: the project directory path arguments are read against (default: cwd)",
    )
    .addOption(formatOption(["stylish", "json"]))
    .option("--no-color", "no ANSI colours")
    .action(async (tool: string, options) => {
      const { runExplain } = await import("./explain.js");
      state.code = await runExplain(tool, options);
    });
  program
    .command("fmt")
    .description("lay out the YAML files as prettier does; changes layout only, never data")
    .argument("[files...]", "the files to format (default: those the configuration reads)")
    .option("--config <path>", "configuration file")
    .option("--check", "change nothing; print a diff of each unformatted file and exit 1")
    .option("--sort", "also sort what has no order (allow/ask/deny, a rule's tools, reasons, keys)")
    .action(async (files: string[], options) => {
      const { runFmt } = await import("./fmt.js");
      state.code = await runFmt(files, options);
    });
  program
    .command("codegen")
    .description("write the TypeScript argument interfaces and handler types of the policy")
    .option("--config <path>", "configuration file")
    .option("--out <path>", "the generated .ts file (default: the config's codegen.out)")
    .option("--check", "exit 1 (codegen-stale) when the file on disk differs from what would be written")
    .option("--no-color", "no ANSI colours")
    .action(async (options) => {
      const { runCodegen } = await import("./codegen.js");
      state.code = await runCodegen(options);
    });
  program
    .command("compile")
    .description("write the standalone controller module (.mjs) and its declarations")
    .option("--config <path>", "configuration file")
    .option("--out <path>", "the compiled module (default: the config's compile.out)")
    .option(
      "--check",
      "exit 1 (codegen-stale) when the module or its declarations differ from what would be written",
    )
    .option("--no-color", "no ANSI colours")
    .action(async (options) => {
      const { runCompile } = await import("./compile.js");
      state.code = await runCompile(options);
    });
  program
    .command("diff")
    .description("what a policy change lets through that was refused before: statement and decision changes")
    .requiredOption("--base <ref|dir>", "the policy before: a git revision of the repository, or a directory")
    .option("--head <dir>", "the policy after (default: the working tree)")
    .option(
      "--config <path>",
      "configuration file, at the same place relative to the repository root on both sides",
    )
    .option(
      "--calls <log>",
      "replay the calls of an audit log (JSONL, SQLite or postgres://…); repeatable",
      collect,
      [],
    )
    .addOption(formatOption(["stylish", "markdown", "json", "github", "sarif"]))
    .option(
      "--fail-on <what>",
      "exit 1 when something loosened, or changed at all: loosened, changed (also when whether a tool loosens is unknown)",
    )
    .option(
      "--allow-unknown",
      "with --fail-on: a tool whose loosening is unknown is a warning, not a failure",
    )
    .option("--no-color", "no ANSI colours")
    .action(async (options) => {
      const { runDiff } = await import("./diff.js");
      state.code = await runDiff(options);
    });
  program
    .command("init")
    .description(
      "write a configuration, tool specs, a deny-by-default policy and a test per tool; tools from an MCP server, OpenAI or Anthropic tools",
    )
    .argument("[dir]", "the project folder (default: the current one)")
    .option("--force", "replace files that init would write and that already exist")
    .option("--from-mcp <command>", "start this MCP server (stdio) and import its tools/list", collect)
    .option("--from-mcp-url <url>", "import the tools/list of a Streamable HTTP MCP server", collect)
    .option(
      "--header <header>",
      '"Name: value" sent to --from-mcp-url servers (not written anywhere)',
      collect,
      [],
    )
    .option("--from-mcp-json <file>", "import a saved MCP tools/list result (JSON)", collect)
    .option("--from-openai <file>", "import an OpenAI tools array (JSON)", collect)
    .option("--from-anthropic <file>", "import an Anthropic tools array (JSON)", collect)
    .option("--timeout <seconds>", "time allowed for each MCP server to answer (default 30)")
    .option(
      "--agent <host>",
      "set up a coding agent: codex, cursor or opencode (the canonical tools), claude-code or gemini-cli (their own packs, or the canonical tools with --canonical); in a project already set up on the canonical tools, only the agent's hook registration is added",
    )
    .option(
      "--canonical",
      "with --agent claude-code or gemini-cli: the canonical tools, one policy for every agent",
    )
    .option("--no-color", "no ANSI colours")
    .action(async (dir: string | undefined, options) => {
      const { runInit } = await import("./init.js");
      state.code = await runInit(dir, options);
    });
  const approvals = program
    .command("approvals")
    .description("list, approve or reject pending approval requests in the configured store");
  approvals
    .command("list")
    .description(
      "list the open requests with their arguments, context and reasons, oldest first, as they are read",
    )
    .option("--config <path>", "configuration file")
    .option("--store <url>", "approval store URL (default: the config's approvals)")
    .option(
      "--status <states>",
      "comma-separated: pending, approved, rejected, used, expired (default: the first three)",
    )
    .option("--tool <name>", "only requests for this tool")
    .option("--limit <n>", "at most this many requests")
    .addOption(formatOption(["stylish", "json"]))
    .action(async (options) => {
      const { runApprovalsList } = await import("./approvals.js");
      state.code = await runApprovalsList(options);
    });
  for (const [name, approved] of [
    ["approve", true],
    ["reject", false],
  ] as const) {
    const command = approvals
      .command(name)
      .description(
        approved
          ? "approve a request; the waiting application runs the call once"
          : "reject a request with a reason",
      )
      .argument("<id>", "approval id")
      .option("--config <path>", "configuration file")
      .option("--store <url>", "approval store URL (default: the config's approvals)")
      .option("--approver <name>", "who decides (default: the current user)")
      .option("--reason <text>", approved ? "a note for the audit log" : "why (required; the model is told)");
    if (approved) {
      command
        .option(
          "--remember-for <duration>",
          "also let the same tool with the same arguments run without asking for this long (30m, 4h; at most grants.max_hours)",
        )
        .option(
          "--remember-session",
          "also let the same tool with the same arguments run without asking in the request's session (grants.session_key)",
        );
    }
    command.action(async (id: string, options) => {
      const { runApprovalsDecide } = await import("./approvals.js");
      state.code = await runApprovalsDecide(id, approved, options);
    });
  }
  approvals
    .command("serve")
    .description(
      "serve a web inbox of the pending requests: approve or reject (and remember) from a browser, with live updates",
    )
    .option("--config <path>", "configuration file")
    .option("--store <url>", "approval store URL (default: the config's approvals)")
    .option(
      "--listen <host:port>",
      "where to listen (default 127.0.0.1:7807; other addresses need a token or --trusted-header)",
    )
    .option("--token-file <file>", "file holding the sign-in token (or set TOOLGATE_INBOX_TOKEN)")
    .option(
      "--trusted-header <name>",
      "a header your reverse proxy sets to the signed-in person's name, such as X-Forwarded-User",
    )
    .action(async (options) => {
      const { runApprovalsServe } = await import("./approvals-serve.js");
      state.code = await runApprovalsServe(options);
    });
  const grants = approvals
    .command("grants")
    .description("remembered approvals: the same tool with the same arguments, for a time or one session");
  grants
    .command("list")
    .description("list the remembered approvals in force, oldest first")
    .option("--config <path>", "configuration file")
    .option("--store <url>", "approval store URL (default: the config's approvals)")
    .option("--all", "also revoked and expired ones")
    .addOption(formatOption(["stylish", "json"]))
    .action(async (options) => {
      const { runGrantsList } = await import("./approvals.js");
      state.code = await runGrantsList(options);
    });
  grants
    .command("revoke")
    .description("revoke a remembered approval: calls ask again")
    .argument("<id>", "grant id (grt_…)")
    .option("--config <path>", "configuration file")
    .option("--store <url>", "approval store URL (default: the config's approvals)")
    .option("--approver <name>", "who revokes (default: the current user)")
    .action(async (id: string, options) => {
      const { runGrantsRevoke } = await import("./approvals.js");
      state.code = await runGrantsRevoke(id, options);
    });
  const audit = program.command("audit").description("audit log tools");
  audit
    .command("verify")
    .description(
      "check the chain of a JSONL audit log (and its MACs with a key, and a saved head); names the first bad line",
    )
    .argument("[path]", "the log (default: the config's audit sink)")
    .option("--config <path>", "configuration file")
    .option("--key <file>", "file holding the log's HMAC key (default: the config's keyFile/keyEnv)")
    .option("--key-env <name>", "environment variable holding the log's HMAC key")
    .option("--expect-head <hash>", "chain value saved earlier with `toolgate audit head`")
    .option("--expect-count <n>", "line count saved earlier with `toolgate audit head`")
    .action(async (path: string | undefined, options) => {
      const { runAuditVerify } = await import("./audit.js");
      state.code = await runAuditVerify(path, options);
    });
  audit
    .command("head")
    .description(
      "verify a JSONL audit log and print its head (line count and chain value), to save as an anchor",
    )
    .argument("[path]", "the log (default: the config's audit sink)")
    .option("--config <path>", "configuration file")
    .option("--key <file>", "file holding the log's HMAC key (default: the config's keyFile/keyEnv)")
    .option("--key-env <name>", "environment variable holding the log's HMAC key")
    .addOption(formatOption(["stylish", "json"]))
    .action(async (path: string | undefined, options) => {
      const { runAuditHead } = await import("./audit.js");
      state.code = await runAuditHead(path, options);
    });
  program
    .command("mcp-proxy")
    .description(
      "serve MCP on stdio in front of the MCP server that COMMAND starts: list only the visible tools, gate every call",
    )
    .argument("<command...>", "the command that starts the MCP server, after --")
    .option("--config <path>", "configuration file")
    .option(
      "--ask-timeout <seconds>",
      "how long a call waits for an approval before its result says how to approve (default 300)",
    )
    .option("--listen <host:port>", "serve MCP over Streamable HTTP at http://HOST:PORT/mcp instead of stdio")
    .option(
      "--token-file <file>",
      "with --listen: the bearer token clients must send (default: $TOOLGATE_MCP_TOKEN, else .toolgate/mcp-proxy.token, made if absent)",
    )
    .option(
      "--root <dir>",
      "a directory the agent works in: an absolute path argument under it is decided relative to it; repeatable",
      collect,
    )
    .action(async (command: string[], options) => {
      const { runMcpProxy } = await import("./mcp-proxy.js");
      state.code = await runMcpProxy(command, options);
    });
  const hook = program.command("hook").description("answer an agent's tool-call hook from the policy");
  // One command per hook host of the registry: the options every hook has, the host's own, and the agent's
  // project variable as the default of --project.
  for (const host of HOOK_HOSTS.values()) {
    const projectVariable = host.projectVariable;
    const command = hook
      .command(host.name)
      .description(
        `${host.events} hook: read its JSON on stdin, write the decision; exit 2 blocks on unreadable input`,
      )
      .option("--config <path>", "configuration file")
      .option(
        `--${UNREADABLE_OPTION.key} <${UNREADABLE_OPTION.valueName}>`,
        UNREADABLE_OPTION.description,
        UNREADABLE_OPTION.default,
      )
      .option(
        "--project <dir>",
        projectVariable === undefined
          ? "the project directory paths are read against (default: the payload's cwd)"
          : `the project directory paths are read against (default: $${projectVariable}, else cwd)`,
      )
      .option(
        "--root <dir>",
        "another directory the agent works in: an absolute path under it is decided relative to it; repeatable",
        collect,
      );
    for (const option of host.options) {
      command.option(`--${option.key} <${option.valueName}>`, option.description, option.default);
    }
    command.action(async (options) => {
      const project: string | undefined =
        options.project ??
        (projectVariable === undefined ? undefined : process.env[projectVariable] || undefined);
      const commands = await import("./hook.js");
      state.code = commands.runHookHost(
        host.name,
        { ...options, ...(project === undefined ? {} : { project }) },
        {
          readInput: commands.readStdin,
          write: (text) => process.stdout.write(text),
          writeError: (text) => process.stderr.write(text),
        },
      );
    });
  }
  const importCommand = program
    .command("import")
    .description("turn another tool's permission rules into a toolgate policy");
  importCommand
    .command("codex")
    .description("Codex rules files (prefix_rule) as rules on a shell tool's command field")
    .argument("<rules...>", "Codex .rules files")
    .option("--tool <name>", "the toolgate tool that runs shell commands", "Bash")
    .option("--field <path>", "its argument that holds the command", "command")
    .option("--out <path>", "write the policy here (default: stdout, with the report on stderr)")
    .option("--force", "overwrite --out when it exists")
    .addOption(formatOption(["stylish", "json"]))
    .action(async (files: string[], options) => {
      const { runImportCodex } = await import("./import.js");
      state.code = await runImportCodex(files, options);
    });
  importCommand
    .command("claude-code")
    .description(
      "Claude Code's permissions.allow/ask/deny (settings.json) as rules over the Claude Code pack",
    )
    .argument("<settings...>", "settings files (.claude/settings.json, .claude/settings.local.json, …)")
    .option("--out <path>", "write the policy here (default: stdout, with the report on stderr)")
    .option("--force", "overwrite --out when it exists")
    .option("--project <dir>", "the project directory (default: the directory holding .claude/)")
    .option("--home <dir>", "the home directory that ~/ rules name (default: yours)")
    .option(
      "--unreadable-deny",
      "the hook runs with --unreadable deny: carry denies of tools outside the pack (Skill, PowerShell, *) by it",
    )
    .addOption(formatOption(["stylish", "json"]))
    .action(async (files: string[], options) => {
      const { runImportClaudeCode } = await import("./import.js");
      state.code = await runImportClaudeCode(files, options);
    });
  return program;
}

/** Runs the CLI with the given arguments (without `node` and the script) and returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const state = { code: EXIT.ok as number };
  const program = buildProgram(state);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return state.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end with exit code 0; everything else commander rejects is a usage error.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof UsageError) {
      printError(error.message);
      return EXIT.usage;
    }
    const message = error instanceof Error ? error.message : String(error);
    // A toolgate error says what is wrong and what to do (a missing optional package names it); only an
    // unexpected error is an internal one.
    printError(isToolgateError(error) ? message : `internal error: ${message}`);
    if (process.env.TOOLGATE_DEBUG) console.error(error);
    return EXIT.usage;
  }
}
