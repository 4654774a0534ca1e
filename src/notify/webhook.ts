/**
 * The webhook notifier: a JSON POST of the `ApprovalNotice`, signed with HMAC-SHA256 over the timestamp and
 * the body, retried with capped exponential backoff. It runs outside the decision (the controller does not
 * await it); when every attempt fails, its promise rejects with a `NotificationError`.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import {
  type ApprovalNotice,
  type ApprovalRequestedHook,
  NotificationError,
} from "../runtime/approval-notice.js";
import { ToolgateError } from "../runtime/errors.js";
import { describeThrown } from "../runtime/plain-data.js";

/** The header that carries `sha256=` + hex HMAC-SHA256 of `TIMESTAMP.BODY` under the shared secret. */
export const SIGNATURE_HEADER = "x-toolgate-signature";
/** The header that carries the signing time, in whole seconds since the epoch. */
export const TIMESTAMP_HEADER = "x-toolgate-timestamp";
/** The header that carries the approval id: the same on every attempt, so a receiver can drop repeats. */
export const DELIVERY_HEADER = "x-toolgate-delivery";

/** Options of `webhookNotifier`. */
export interface WebhookNotifierOptions {
  /** Where the POST goes (`http://` or `https://`). */
  readonly url: string;
  /** The shared signing secret (at least 16 bytes). */
  readonly secret: string | Uint8Array;
  /** Per attempt, in milliseconds (default 5000). */
  readonly timeoutMs?: number;
  /** Attempts in all (default 5). */
  readonly maxAttempts?: number;
  /** The wait before the second attempt, doubled for each later one (default 500 ms). */
  readonly initialBackoffMs?: number;
  /** The longest wait between attempts, also for a receiver's `Retry-After` (default 30000 ms). */
  readonly maxBackoffMs?: number;
}

/** The smallest signing secret accepted, in bytes. */
export const MIN_WEBHOOK_SECRET_BYTES = 16;

/** The signature header's value for a body signed at `timestamp` (seconds). */
export function signWebhookBody(secret: string | Uint8Array, timestamp: number, body: string): string {
  const mac = createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex");
  return `sha256=${mac}`;
}

/** Options of `verifyWebhookSignature`. */
export interface VerifyWebhookOptions {
  readonly secret: string | Uint8Array;
  /** The raw request body, exactly as received. */
  readonly body: string;
  /** The `X-Toolgate-Signature` header. */
  readonly signature: string | undefined;
  /** The `X-Toolgate-Timestamp` header. */
  readonly timestamp: string | undefined;
  /** How far the timestamp may be from now, in seconds (default 300): an older request is a replay. */
  readonly toleranceSeconds?: number;
  /** Clock in milliseconds, for tests. */
  readonly now?: number;
}

/** Whether a received webhook is genuine and fresh, and if not, why. */
export type WebhookVerification = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * Checks a received webhook: the signature must be the HMAC of `TIMESTAMP.BODY` under the secret, and the
 * timestamp within the tolerance of now (which stops a captured request from being replayed later).
 * @throws ToolgateError `invalid-option` for a secret shorter than 16 bytes (an empty or short secret would
 *   let anyone sign) or a tolerance that is not a finite number of seconds from 0 up (an infinite one would
 *   accept every replay).
 */
export function verifyWebhookSignature(options: VerifyWebhookOptions): WebhookVerification {
  const { signature, timestamp } = options;
  const secretBytes =
    typeof options.secret === "string"
      ? Buffer.byteLength(options.secret, "utf8")
      : options.secret.byteLength;
  if (secretBytes < MIN_WEBHOOK_SECRET_BYTES) {
    throw new ToolgateError(
      "invalid-option",
      `the webhook secret must be at least ${MIN_WEBHOOK_SECRET_BYTES} bytes, got ${secretBytes}; use the secret the notifier signs with`,
    );
  }
  const tolerance = options.toleranceSeconds ?? 300;
  if (typeof tolerance !== "number" || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new ToolgateError(
      "invalid-option",
      `toleranceSeconds must be a finite number of seconds, 0 or more, got ${String(tolerance)}`,
    );
  }
  if (timestamp === undefined || !/^\d{1,15}$/.test(timestamp)) {
    return { ok: false, reason: "missing or malformed timestamp header" };
  }
  if (signature === undefined || !/^sha256=[0-9a-f]{64}$/.test(signature)) {
    return { ok: false, reason: "missing or malformed signature header" };
  }
  const seconds = Number(timestamp);
  const now = (options.now ?? Date.now()) / 1000;
  if (Math.abs(now - seconds) > tolerance) {
    return { ok: false, reason: "the timestamp is outside the tolerance (a replay, or a clock far off)" };
  }
  const expected = Buffer.from(signWebhookBody(options.secret, seconds, options.body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: "the signature does not match the body" };
  }
  return { ok: true };
}

/** An attempt's outcome: done, worth another try (after at least `retryAfterMs`), or not. */
type Attempt =
  | { readonly kind: "delivered" }
  | { readonly kind: "retry"; readonly problem: string; readonly retryAfterMs?: number }
  | { readonly kind: "give-up"; readonly problem: string };

function positive(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new ToolgateError(
      "invalid-option",
      `webhook ${name} must be a whole number from 1 to ${max}, got ${value}`,
    );
  }
  return value;
}

/**
 * A notifier that POSTs each notice to `url` as JSON, with `X-Toolgate-Timestamp`, `X-Toolgate-Signature`
 * (`sha256=` HMAC of `TIMESTAMP.BODY`) and `X-Toolgate-Delivery` (the approval id). Network errors, timeouts,
 * 408, 429 and 5xx answers are retried after `initialBackoffMs`, doubling up to `maxBackoffMs` (with jitter,
 * and at least a `Retry-After` the receiver sent, within the cap); other answers end the delivery. Timers do
 * not keep the process alive.
 * @throws ToolgateError `invalid-option` for a URL that is not http(s), a short secret or a bad number.
 */
export function webhookNotifier(options: WebhookNotifierOptions): ApprovalRequestedHook {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new ToolgateError("invalid-option", `webhook url ${JSON.stringify(options.url)} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ToolgateError(
      "invalid-option",
      `webhook url must start with http:// or https://, got ${url.protocol}`,
    );
  }
  const secretBytes =
    typeof options.secret === "string" ? Buffer.byteLength(options.secret) : options.secret.length;
  if (secretBytes < MIN_WEBHOOK_SECRET_BYTES) {
    throw new ToolgateError(
      "invalid-option",
      `the webhook secret has ${secretBytes} bytes; use at least ${MIN_WEBHOOK_SECRET_BYTES} (for example \`openssl rand -hex 32\`)`,
    );
  }
  const secret = options.secret;
  const timeoutMs = positive("timeoutMs", options.timeoutMs ?? 5000, 600_000);
  const maxAttempts = positive("maxAttempts", options.maxAttempts ?? 5, 100);
  const initial = positive("initialBackoffMs", options.initialBackoffMs ?? 500, 3_600_000);
  const cap = positive("maxBackoffMs", options.maxBackoffMs ?? 30_000, 3_600_000);
  // Never a password in a message.
  const label = `webhook ${url.origin}${url.pathname}`;

  const attempt = async (body: string, approvalId: string): Promise<Attempt> => {
    const timestamp = Math.floor(Date.now() / 1000);
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "toolgate-webhook",
          [TIMESTAMP_HEADER]: String(timestamp),
          [SIGNATURE_HEADER]: signWebhookBody(secret, timestamp, body),
          [DELIVERY_HEADER]: approvalId,
        },
        body,
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      return {
        kind: "retry",
        problem: timedOut ? `no answer within ${timeoutMs} ms` : describeThrown(error),
      };
    }
    // The body is not needed; cancelling it frees the connection.
    await response.body?.cancel().catch(() => undefined);
    if (response.ok) return { kind: "delivered" };
    const problem = `the receiver answered ${response.status}`;
    if (response.status === 408 || response.status === 429 || response.status >= 500) {
      const after = Number(response.headers.get("retry-after"));
      return Number.isFinite(after) && after > 0
        ? { kind: "retry", problem, retryAfterMs: after * 1000 }
        : { kind: "retry", problem };
    }
    return { kind: "give-up", problem };
  };

  return async (notice: ApprovalNotice): Promise<void> => {
    const body = JSON.stringify(notice);
    let problem = "";
    for (let n = 1; n <= maxAttempts; n++) {
      const outcome = await attempt(body, notice.approvalId);
      if (outcome.kind === "delivered") return;
      problem = outcome.problem;
      if (outcome.kind === "give-up" || n === maxAttempts) break;
      const backoff = Math.min(cap, initial * 2 ** (n - 1));
      // Half fixed, half random: receivers recovering from an outage are not hit by every sender at once.
      const jittered = backoff / 2 + Math.random() * (backoff / 2);
      await sleep(Math.min(cap, Math.max(jittered, outcome.retryAfterMs ?? 0)));
    }
    throw new NotificationError(
      label,
      notice.approvalId,
      `the notice was not delivered (${problem}); attempts: up to ${maxAttempts}`,
    );
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms).unref());
}
