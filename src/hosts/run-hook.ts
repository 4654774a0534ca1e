/**
 * One run of a hook host: read stdin, read the payload, get the policy, turn the payload into canonical calls,
 * decide them through one controller and write the host's answer. Anything it cannot read or load fails closed
 * the host's way. Where the policy comes from (loaded from YAML, or a cached compiled controller) is the
 * caller's `load`.
 */
import { resolve } from "node:path";
import { isAbsolutePath, linkTarget, MAX_HOOK_INPUT_BYTES } from "../adapters/hook-payload.js";
import type { ToolAlias } from "../runtime/tool-aliases.js";
import type { HookAdapter, HookReply } from "./hook-host.js";
import type { DecidingController } from "./host-adapter.js";

/** Where a hook reads and writes; the CLI passes the process's streams. */
export interface HookIo {
  readonly readInput: () => Buffer;
  readonly write: (text: string) => void;
  readonly writeError: (text: string) => void;
}

/** The policy a hook decides with. */
export interface HookPolicy {
  readonly controller: DecidingController;
  /** The names of the tools the policy declares. */
  readonly toolNames: ReadonlySet<string>;
  /** The config's `roots:` (absolute). */
  readonly roots: readonly string[] | undefined;
  readonly contextSchema: unknown;
  /** The tool aliases of the configuration's tool files (each a host's tool read as a declared tool). */
  readonly aliases: readonly ToolAlias[];
}

/** The policy, or why there is none: `report` goes to stderr, `reason` into the blocking answer. */
export type HookPolicyLoad =
  | { readonly ok: true; readonly policy: HookPolicy }
  | { readonly ok: false; readonly reason: string; readonly report?: string };

/** Where a run reads paths against. */
export interface HookRunOptions {
  /** The project directory (default: the payload's cwd). */
  readonly project?: string;
  /** `--root`: other directories the agent works in (relative ones against the working directory). */
  readonly root?: readonly string[];
}

/**
 * The roots a hook reads absolute paths against: the project directory, then `--root` (relative to the working
 * directory) and the config's `roots:`, each also as its real path (so that a link's target, which is a real
 * path, is compared with the real directory: `/tmp` may be `/private/tmp`).
 */
export function hookRoots(
  project: string,
  flags: readonly string[] | undefined,
  configured: readonly string[] | undefined,
): readonly string[] {
  const given = [project, ...(flags ?? []).map((root) => resolve(root)), ...(configured ?? [])];
  const real = given.flatMap((root) => {
    const target = linkTarget(root);
    return target === undefined ? [] : [target];
  });
  return [...new Set([...given, ...real])];
}

function write(io: HookIo, reply: HookReply): number {
  if (reply.stdout !== undefined) io.write(reply.stdout);
  if (reply.stderr !== undefined) io.writeError(reply.stderr);
  return reply.exitCode;
}

/** The first half of a run: the payload read from stdin, or the exit code of a run that already answered. */
export type HookInput<P> =
  | { readonly ok: true; readonly message: P }
  | { readonly ok: false; readonly exitCode: number };

/** Reads stdin into the host's payload; anything it cannot read fails closed the host's way. */
export function readHookInput<P extends { readonly cwd: string }>(
  adapter: HookAdapter<P>,
  io: HookIo,
): HookInput<P> {
  const block = (reason: string) => ({
    ok: false as const,
    exitCode: write(io, adapter.failClosed.answer(reason)),
  });
  let bytes: Buffer;
  try {
    bytes = io.readInput();
  } catch (error) {
    return block(`cannot read the hook input on stdin (${(error as Error).message})`);
  }
  if (bytes.length > MAX_HOOK_INPUT_BYTES) {
    return block(`the hook input is larger than ${MAX_HOOK_INPUT_BYTES} bytes`);
  }
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false }).decode(bytes);
  const read = adapter.read(text);
  return read.ok ? { ok: true, message: read.message } : block(read.reason);
}

/** The project directory a run reads paths against: `--project`, else the payload's cwd (may not be absolute). */
export function hookProject(options: HookRunOptions, message: { readonly cwd: string }): string {
  return options.project ?? message.cwd;
}

/**
 * The second half of a run: with the policy loaded (or not), turns the payload into canonical calls, decides
 * them through the policy's controller and writes the host's answer. Returns the exit code.
 */
export function answerHook<P extends { readonly cwd: string }>(
  adapter: HookAdapter<P>,
  message: P,
  options: HookRunOptions,
  io: HookIo,
  loaded: HookPolicyLoad,
): number {
  const block = (reason: string) => write(io, adapter.failClosed.answer(reason));
  if (!loaded.ok) {
    if (loaded.report !== undefined) io.writeError(loaded.report);
    return block(loaded.reason);
  }
  const { policy } = loaded;
  const project = hookProject(options, message);
  if (!isAbsolutePath(project))
    return block(`the project directory ${JSON.stringify(project)} is not absolute`);
  const calls = adapter.toCalls(message, {
    declared: (name) => policy.toolNames.has(name),
    roots: hookRoots(project, options.root, policy.roots),
    contextSchema: policy.contextSchema,
    aliases: policy.aliases,
  });
  const decide = adapter.decide;
  if (decide === undefined) return block(`the ${adapter.host} adapter cannot decide`);
  return write(io, adapter.answer(decide(policy.controller, calls), message));
}

/**
 * Runs one hook invocation through `adapter`. `load` gets the project directory the payload names (or
 * `--project`), which may not be absolute. Returns the exit code.
 */
export function runHook<P extends { readonly cwd: string }>(
  adapter: HookAdapter<P>,
  options: HookRunOptions,
  io: HookIo,
  load: (project: string) => HookPolicyLoad,
): number {
  const input = readHookInput(adapter, io);
  if (!input.ok) return input.exitCode;
  return answerHook(adapter, input.message, options, io, load(hookProject(options, input.message)));
}
