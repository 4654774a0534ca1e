/**
 * The command notifier: runs a program (no shell) with the `ApprovalNotice` as JSON on its standard input,
 * and stops it after a timeout. Its promise rejects with a `NotificationError` when the program cannot start,
 * exits with a failure, or runs too long; the controller reports that and the decision stands.
 */
import { spawn } from "node:child_process";
import { escapeControl } from "../diagnostics/escape-control.js";
import {
  type ApprovalNotice,
  type ApprovalRequestedHook,
  NotificationError,
} from "../runtime/approval-notice.js";
import { ToolgateError } from "../runtime/errors.js";

/** Options of `commandNotifier`. */
export interface CommandNotifierOptions {
  /** The program and its arguments. The program is found on `PATH` unless it holds a `/`. */
  readonly command: readonly string[];
  /** Stop the program after this long, in milliseconds (default 10000). */
  readonly timeoutMs?: number;
  /** The program's working directory (default: the process's). */
  readonly cwd?: string;
}

/** How much of the program's standard error a failure message keeps. */
const STDERR_KEPT = 2000;

/**
 * A notifier that runs `command` once per notice with the notice as one line of JSON on standard input.
 * @throws ToolgateError `invalid-option` for an empty command or a bad timeout.
 */
export function commandNotifier(options: CommandNotifierOptions): ApprovalRequestedHook {
  const [program, ...args] = options.command;
  if (program === undefined || program === "") {
    throw new ToolgateError(
      "invalid-option",
      "a command notifier needs a program to run: command: [program, args…]",
    );
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000) {
    throw new ToolgateError(
      "invalid-option",
      `command timeoutMs must be a whole number from 1 to 600000, got ${timeoutMs}`,
    );
  }
  const label = `command ${program}`;
  return (notice: ApprovalNotice): Promise<void> =>
    new Promise((done, fail) => {
      const failWith = (message: string, cause?: unknown): void =>
        fail(
          new NotificationError(
            label,
            notice.approvalId,
            message,
            cause === undefined ? undefined : { cause },
          ),
        );
      const child = spawn(program, args, {
        shell: false,
        stdio: ["pipe", "ignore", "pipe"],
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      });
      let stderr = "";
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill("SIGKILL");
      }, timeoutMs);
      timer.unref();
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (chunk: string) => {
        if (stderr.length < STDERR_KEPT) stderr += chunk.slice(0, STDERR_KEPT - stderr.length);
      });
      child.on("error", (error) => {
        clearTimeout(timer);
        failWith(`could not start: ${error.message}`, error);
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        const said = stderr.trim() === "" ? "" : `; it wrote: ${escapeControl(stderr.trim())}`;
        if (timedOut) failWith(`did not finish within ${timeoutMs} ms and was stopped${said}`);
        else if (code !== 0)
          failWith(`exited with ${code === null ? `signal ${signal}` : `code ${code}`}${said}`);
        else done();
      });
      // A program that does not read its input closes the pipe: that is its business, not a failure.
      child.stdin?.on("error", () => undefined);
      child.stdin?.end(`${JSON.stringify(notice)}\n`);
    });
}
