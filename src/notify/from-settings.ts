/**
 * The config's `notify` list as hooks: secrets are read and commands resolved when the controller is created,
 * so that a missing secret stops start-up with a clear message instead of failing at the first ask.
 */
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { NotifierSetting } from "../bundle/policy-bundle.js";
import type { ApprovalRequestedHook } from "../runtime/approval-notice.js";
import { ToolgateError } from "../runtime/errors.js";
import { describeThrown } from "../runtime/plain-data.js";
import { commandNotifier } from "./command.js";
import { webhookNotifier } from "./webhook.js";

/**
 * Reads a webhook's signing secret from an environment variable or a file (relative to `base`). Trailing
 * whitespace in a file is not part of the secret. A file readable by group or others is refused.
 * @throws ToolgateError `notifier-secret` saying what to do.
 */
export function readWebhookSecret(
  setting: { secretEnv?: string; secretFile?: string },
  base: string,
): string {
  if (setting.secretEnv !== undefined) {
    const value = process.env[setting.secretEnv];
    if (value === undefined || value === "") {
      throw new ToolgateError(
        "notifier-secret",
        `the environment variable ${setting.secretEnv} that should hold the webhook secret (notify) is not set; set it to a secret such as the output of \`openssl rand -hex 32\``,
      );
    }
    return value;
  }
  if (setting.secretFile === undefined) {
    throw new ToolgateError("notifier-secret", "a webhook notifier needs secret_env or secret_file");
  }
  const file = resolve(base, setting.secretFile);
  let text: string;
  let mode: number;
  try {
    mode = statSync(file).mode;
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ToolgateError(
      "notifier-secret",
      `cannot read the webhook secret file ${file}: ${describeThrown(error)}; create it with \`openssl rand -hex 32 > ${file} && chmod 600 ${file}\``,
      { cause: error },
    );
  }
  if (process.platform !== "win32" && (mode & 0o077) !== 0) {
    throw new ToolgateError(
      "notifier-secret",
      `the webhook secret file ${file} can be read by other users (mode ${(mode & 0o777).toString(8)}); run \`chmod 600 ${file}\``,
    );
  }
  return text.trimEnd();
}

/**
 * One hook per configured notifier. A command's program holding a `/` is resolved against `base` (the
 * config file's directory), which is also its working directory.
 * @throws ToolgateError `notifier-secret` when a secret cannot be read; `invalid-option` for bad settings.
 */
export function notifiersFromSettings(
  settings: readonly NotifierSetting[],
  base: string,
): ApprovalRequestedHook[] {
  return settings.map((setting) => {
    if (setting.kind === "webhook") {
      return webhookNotifier({
        url: setting.url,
        secret: readWebhookSecret(setting, base),
        ...(setting.timeoutMs === undefined ? {} : { timeoutMs: setting.timeoutMs }),
        ...(setting.maxAttempts === undefined ? {} : { maxAttempts: setting.maxAttempts }),
      });
    }
    const [program = "", ...args] = setting.command;
    const resolved = program.includes("/") && !isAbsolute(program) ? resolve(base, program) : program;
    return commandNotifier({
      command: [resolved, ...args],
      cwd: base,
      ...(setting.timeoutMs === undefined ? {} : { timeoutMs: setting.timeoutMs }),
    });
  });
}
