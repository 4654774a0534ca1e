/**
 * Where the two sides of `toolgate diff` come from: the working tree, a directory holding another copy of the
 * configuration, or a git revision of the repository. A revision is written into a temporary directory with
 * `git archive` (nothing is checked out, the working tree and the index are never touched), and the
 * configuration is looked up at the same place relative to the repository root as on the working tree.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { findConfig } from "../config/discover.js";
import { ToolgateError } from "../runtime/errors.js";

/** One side of a diff, ready for `loadPolicyResultSync`. */
export interface PolicySource {
  /** How the side is named in output: `working tree`, the directory as given, or the revision and its commit. */
  readonly label: string;
  /** The directory the side is loaded from (discovery starts here; diagnostic paths are relative to it). */
  readonly cwd: string;
  /** The configuration file, relative to `cwd`, when one was named. */
  readonly config?: string;
  /** Removes what opening the side wrote (the temporary directory of a revision); safe to call twice. */
  dispose(): void;
}

/** Thrown when `--base` or `--head` names neither a directory nor a revision (a usage error). */
export class PolicySourceError extends ToolgateError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("policy-source", message, options);
  }
}

const nothing = () => {};

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function git(args: readonly string[], cwd: string): string | undefined {
  try {
    return execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return undefined;
  }
}

/** The working tree as it is: the configuration is found from `cwd`, or `config` relative to it. */
export function workingTreeSource(cwd: string, config?: string): PolicySource {
  return { label: "working tree", cwd, ...(config === undefined ? {} : { config }), dispose: nothing };
}

/**
 * Opens `--base` or `--head`: a directory (its configuration is found in it, or `config` is read relative
 * to it), else a git revision of the repository that holds `cwd`.
 * @param spec - the flag's value.
 * @param cwd - the working directory of the command.
 * @param config - `--config` as given (relative to `cwd`), if any.
 * @throws PolicySourceError when `spec` is neither, or git cannot write the revision out.
 */
export function openPolicySource(spec: string, cwd: string, config?: string): PolicySource {
  const asDirectory = resolve(cwd, spec);
  if (isDirectory(asDirectory)) {
    return { label: spec, cwd: asDirectory, ...(config === undefined ? {} : { config }), dispose: nothing };
  }
  if (spec === "" || spec.startsWith("-")) {
    throw new PolicySourceError(`"${spec}" is neither a directory nor a git revision`);
  }
  const root = git(["rev-parse", "--show-toplevel"], cwd);
  if (root === undefined || root === "") {
    throw new PolicySourceError(
      `"${spec}" is not a directory, and ${cwd} is not inside a git repository where it could be a revision`,
    );
  }
  const commit = git(["rev-parse", "--verify", "--quiet", `${spec}^{commit}`], cwd);
  if (commit === undefined || !/^[0-9a-f]{40,64}$/.test(commit)) {
    throw new PolicySourceError(
      `"${spec}" is neither a directory nor a revision of the git repository at ${root}; give a branch, tag or commit (git log shows them) or a directory`,
    );
  }
  const temporary = mkdtempSync(join(tmpdir(), "toolgate-diff-"));
  const dispose = () => rmSync(temporary, { recursive: true, force: true });
  try {
    const archive = execFileSync("git", ["archive", "--format=tar", commit], {
      cwd: root,
      maxBuffer: 1 << 30,
      stdio: ["ignore", "pipe", "pipe"],
    });
    execFileSync("tar", ["-x", "-f", "-", "-C", temporary], {
      input: archive,
      stdio: ["pipe", "ignore", "pipe"],
    });
  } catch (error) {
    dispose();
    const detail = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new PolicySourceError(
      `could not write revision ${spec} out with git archive${detail ? `: ${detail}` : ""}`,
      { cause: error },
    );
  }
  // The same place relative to the repository root as on the working tree (realpath: git prints it resolved).
  const inside = (path: string) => relative(realPath(root), realPath(path));
  const sideCwd = join(temporary, inside(cwd));
  let sideConfig: string | undefined;
  // Without --config, the configuration the working tree discovers is the one to compare: the revision's
  // copy at the same place (discovery inside the temporary directory could climb out of it).
  let named = config;
  if (named === undefined) {
    const found = findConfig({ cwd });
    if (found.found && !inside(found.path).startsWith("..")) named = relative(cwd, found.path);
  }
  if (named !== undefined) {
    const fromRoot = inside(resolve(cwd, named));
    if (isAbsolute(fromRoot) || fromRoot === ".." || fromRoot.startsWith(`..${sep}`)) {
      dispose();
      throw new PolicySourceError(
        `the configuration ${named} is outside the repository at ${root}, so revision ${spec} cannot hold it`,
      );
    }
    sideConfig = relative(sideCwd, join(temporary, fromRoot)) || ".";
  }
  return {
    label: `${spec} (${commit.slice(0, 12)})`,
    cwd: sideCwd,
    ...(sideConfig === undefined ? {} : { config: sideConfig }),
    dispose,
  };
}

function realPath(path: string): string {
  // A path that does not exist (a --config to be reported as missing) keeps its spelling below the deepest
  // directory that does.
  const rest: string[] = [];
  let existing = path;
  for (;;) {
    try {
      return join(realpathSync(existing), ...rest.reverse());
    } catch {
      const parent = resolve(existing, "..");
      if (parent === existing) return path;
      rest.push(relative(parent, existing));
      existing = parent;
    }
  }
}
