/**
 * The `toolgate` command line. One file per command; this file wires them to commander and maps every
 * outcome to the exit codes of DESIGN.md section 7: 0 clean, 1 findings, 2 usage error, config not found
 * or internal error. No stack trace is printed unless TOOLGATE_DEBUG is set.
 */
import { Command, CommanderError, Option } from "commander";
import { EXIT, printError, toolVersion, UsageError } from "./common.js";
import { runExplain } from "./explain.js";
import { runLint } from "./lint.js";
import { runTest } from "./test.js";

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
    .description("check the configuration, tool files, policy and policy tests; report every problem")
    .option("--config <path>", "configuration file (default: discovered from the working directory)")
    .addOption(formatOption(["stylish", "json", "sarif", "github"]))
    .option("--max-warnings <n>", "exit 1 when there are more warnings than this")
    .option("--no-color", "no ANSI colours")
    .action(async (options) => {
      state.code = await runLint(options);
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
      state.code = await runTest(options);
    });
  program
    .command("explain")
    .description("show the decision for one call, its reason and every statement considered")
    .argument("<tool>", "tool name")
    .option("--config <path>", "configuration file")
    .option("--args <json>", "arguments as JSON, or @file.json")
    .option("--context <json>", "caller context as JSON, or @file.json")
    .addOption(formatOption(["stylish", "json"]))
    .option("--no-color", "no ANSI colours")
    .action(async (tool: string, options) => {
      state.code = await runExplain(tool, options);
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
    printError(`internal error: ${message}`);
    if (process.env.TOOLGATE_DEBUG) console.error(error);
    return EXIT.usage;
  }
}
