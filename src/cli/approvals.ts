import { userInfo } from "node:os";
import { escapeControl } from "../diagnostics/escape-control.js";
import { decideApproval } from "../inbox/decide.js";
import type { ApprovalState, ApprovalStore, StoredApproval } from "../runtime/approval-store.js";
import {
  type ApprovalGrant,
  describeGrantScope,
  formatDuration,
  hasGrants,
  parseDuration,
  type RememberScope,
} from "../runtime/grants.js";
import type { ApprovalScanOptions } from "../stores/approval-rows.js";
import { openApprovalStore } from "../stores/open-store.js";
import { EXIT, parseFormat, print, printError, UsageError } from "./common.js";
import { grantSettingsFromConfig, storeUrlFromConfig } from "./store-options.js";

/** Options shared by the `approvals` subcommands. */
export interface ApprovalsOptions {
  readonly config?: string;
  readonly store?: string;
  readonly format?: string;
  readonly approver?: string;
  readonly reason?: string;
  /** `list`: at most this many requests. */
  readonly limit?: string;
  /** `list`: only requests for this tool. */
  readonly tool?: string;
  /** `list`: comma-separated states (default: pending,approved,rejected). */
  readonly status?: string;
  /** `approve`: remember the approval for the same tool and arguments for this long (`4h`, `30m`). */
  readonly rememberFor?: string;
  /** `approve`: remember the approval for the same tool and arguments within the request's session. */
  readonly rememberSession?: boolean;
  /** `grants list`: also revoked and expired grants. */
  readonly all?: boolean;
}

async function withStore<T>(
  options: ApprovalsOptions,
  work: (store: ApprovalStore) => Promise<T>,
): Promise<T> {
  const url = storeUrlFromConfig(options, "approvals");
  if (url === "memory") {
    throw new UsageError(
      "the approvals store is `memory`, which lives inside the application; use sqlite:PATH or postgres://… to approve from a terminal",
    );
  }
  const store = openApprovalStore(url);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** JSON of a value from the store, shown with its control and bidirectional characters escaped. */
const json = (value: unknown): string => escapeControl(JSON.stringify(value) ?? "undefined");

/**
 * A request as a person reads it. Everything in it but the layout comes from the store, and much of it from
 * the model or the MCP client (call id, arguments, context) or another person (approver, reason): every part is
 * escaped, so that no escape sequence can hide the arguments or show fake ones.
 */
function describe(entry: StoredApproval): string {
  const r = entry.request;
  const e = (text: string): string => escapeControl(text);
  const lines = [
    `${e(r.approvalId)}  ${entry.state}  ${e(r.call.toolName)}  (call ${e(r.call.callId)})`,
    `  reason:    ${e(r.reason)}${r.ruleIds.length > 0 ? ` [${r.ruleIds.map(e).join(", ")}]` : ""}`,
    `  arguments: ${json(r.call.arguments)}`,
  ];
  // The facts the caller gave decide as much as the arguments: always shown, so "none" is visible too.
  lines.push(`  context:   ${r.context === undefined ? "(none given)" : json(r.context)}`);
  lines.push(
    `  created:   ${new Date(r.createdAt).toISOString()}, expires ${new Date(r.expiresAt).toISOString()}`,
    `  policy:    ${e(r.policyFingerprint)}`,
  );
  if (entry.response !== undefined) {
    const { approved, approver, reason } = entry.response;
    lines.push(
      `  decided:   ${approved ? "approved" : "rejected"}${approver ? ` by ${e(approver)}` : ""}${reason ? `: ${e(reason)}` : ""}`,
    );
  }
  return lines.join("\n");
}

const STATES: readonly ApprovalState[] = ["pending", "approved", "rejected", "used", "expired"];
const OPEN: readonly ApprovalState[] = ["pending", "approved", "rejected"];

/** A store that can stream its rows (the durable ones); others are listed whole. */
interface Scannable {
  scan(options: ApprovalScanOptions): AsyncIterable<StoredApproval>;
  expireQuietly(now: number): Promise<number>;
}
const scannable = (store: ApprovalStore): store is ApprovalStore & Scannable =>
  typeof (store as Partial<Scannable>).scan === "function" &&
  typeof (store as Partial<Scannable>).expireQuietly === "function";

function parseStatus(value: string | undefined): readonly ApprovalState[] {
  if (value === undefined) return OPEN;
  const states = value.split(",").map((s) => s.trim());
  for (const state of states) {
    if (!(STATES as readonly string[]).includes(state))
      throw new UsageError(
        `unknown --status "${escapeControl(state)}"; use one or more of ${STATES.join(", ")}, separated by commas`,
      );
  }
  return [...new Set(states)] as ApprovalState[];
}

function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new UsageError(`--limit needs a non-negative integer, got "${escapeControl(value)}"`);
  return Number(value);
}

/**
 * Writes to stdout and, when its buffer is full, waits until it drains, so that a long listing streams at the
 * reader's pace instead of piling up in memory. Resolves `false` once stdout is closed (the reader went away).
 */
function write(text: string): Promise<boolean> {
  const out = process.stdout;
  if (out.destroyed || out.writableEnded) return Promise.resolve(false);
  if (out.write(text)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (): void => {
      out.off("drain", done);
      out.off("close", done);
      out.off("error", done);
      resolve(!out.destroyed);
    };
    out.on("drain", done);
    out.on("close", done);
    out.on("error", done);
  });
}

/**
 * `toolgate approvals list`: the requests of the configured store (default: the open ones), oldest first,
 * written as they are read — a store of millions of requests lists in flat memory. `--format json` streams one
 * JSON array.
 */
export async function runApprovalsList(options: ApprovalsOptions): Promise<number> {
  const format = parseFormat(options.format ?? "stylish", ["stylish", "json"] as const);
  const states = parseStatus(options.status);
  const limit = parseLimit(options.limit);
  const tool = options.tool;
  return withStore(options, async (store) => {
    let entries: AsyncIterable<StoredApproval> | Iterable<StoredApproval>;
    if (scannable(store)) {
      await store.expireQuietly(Date.now());
      entries = store.scan({
        states,
        ...(tool === undefined ? {} : { tool }),
        ...(limit === undefined ? {} : { limit }),
      });
    } else {
      await store.expire(Date.now());
      const all = (await store.list(states)).filter(
        (e) => tool === undefined || e.request.call.toolName === tool,
      );
      entries = all.slice(0, limit ?? all.length);
    }
    let count = 0;
    // Small writes are gathered into chunks of about 64 KiB: a write per request would cost a system call each.
    let pending = "";
    const flush = async (): Promise<boolean> => {
      const text = pending;
      pending = "";
      return text === "" || write(text);
    };
    for await (const entry of entries) {
      // The same layout as JSON.stringify(array, null, 2), one element at a time. DEL, C1 and bidirectional
      // characters are written as JSON escapes too (the same strings, shown safely in a terminal).
      const text =
        format === "json"
          ? `${count === 0 ? "[\n" : ",\n"}${escapeControl(JSON.stringify(entry, null, 2), { keepNewlines: true }).replace(/^/gm, "  ")}`
          : `${count === 0 ? "" : "\n\n"}${describe(entry)}`;
      count++;
      pending += text;
      if (pending.length >= 65_536 && !(await flush())) return EXIT.ok;
    }
    if (!(await flush())) return EXIT.ok;
    if (format === "json") await write(count === 0 ? "[]\n" : "\n]\n");
    else if (count === 0)
      await write(
        `no ${states === OPEN ? "open " : ""}approval requests${tool === undefined && states === OPEN ? "" : " match"}\n`,
      );
    else await write("\n");
    return EXIT.ok;
  });
}

/** The `--remember-for` / `--remember-session` options as a scope; `undefined` when neither is given. */
function parseRemember(
  options: ApprovalsOptions,
  approved: boolean,
  maxMs: number,
): RememberScope | undefined {
  if (options.rememberFor === undefined && options.rememberSession !== true) return undefined;
  if (!approved) throw new UsageError("--remember-for and --remember-session go with approve, not reject");
  let durationMs = maxMs;
  if (options.rememberFor !== undefined) {
    const parsed = parseDuration(options.rememberFor);
    if (parsed === undefined)
      throw new UsageError(
        `--remember-for needs a duration in minutes or hours such as 30m or 4h, got "${escapeControl(options.rememberFor)}"`,
      );
    durationMs = parsed;
  }
  return { kind: options.rememberSession === true ? "session" : "arguments", durationMs };
}

/** A grant as a person reads it. */
function describeGrant(grant: ApprovalGrant): string {
  const e = (text: string): string => escapeControl(text);
  const state =
    grant.revokedAt !== undefined
      ? `revoked ${new Date(grant.revokedAt).toISOString()} by ${e(grant.revokedBy ?? "")}`
      : `until ${new Date(grant.expiresAt).toISOString()}`;
  return [
    `${e(grant.grantId)}  ${e(grant.toolName)}  ${e(describeGrantScope(grant))}  ${state}`,
    `  arguments: ${e(grant.argumentsHash)} (as approved in ${e(grant.approvalId)})`,
    `  given by:  ${e(grant.approver)} at ${new Date(grant.createdAt).toISOString()}${grant.reason === undefined ? "" : `: ${e(grant.reason)}`}`,
    `  covers:    ${grant.ruleIds.map(e).join(", ")}`,
  ].join("\n");
}

/**
 * `toolgate approvals approve ID` / `reject ID`: records a person's decision for the waiting application;
 * `--remember-for 4h` or `--remember-session` also gives a grant for the same tool and arguments.
 */
export async function runApprovalsDecide(
  id: string,
  approved: boolean,
  options: ApprovalsOptions,
): Promise<number> {
  if (!approved && (options.reason === undefined || options.reason.trim() === "")) {
    throw new UsageError("reject needs --reason TEXT: the model is told why");
  }
  const remembering = options.rememberFor !== undefined || options.rememberSession === true;
  const settings = remembering ? grantSettingsFromConfig(options) : undefined;
  const remember = settings === undefined ? undefined : parseRemember(options, approved, settings.maxMs);
  const approver = options.approver ?? (process.env.USER || userInfo().username);
  return withStore(options, async (store) => {
    const result = await decideApproval(
      store,
      {
        approvalId: id,
        approved,
        approver,
        ...(options.reason === undefined ? {} : { reason: options.reason }),
        ...(remember === undefined ? {} : { remember }),
      },
      settings ?? { maxMs: 0, sessionKey: "" },
      Date.now(),
    );
    switch (result.status) {
      case "recorded":
        print(
          `${approved ? "approved" : "rejected"} ${escapeControl(id)} (${escapeControl(result.approval.request.call.toolName)}) as ${escapeControl(approver)}`,
        );
        print(describe(result.approval));
        if (result.grant !== undefined) {
          print(
            `remembered as ${escapeControl(result.grant.grantId)} for ${formatDuration(result.grant.expiresAt - result.grant.createdAt)}: ${escapeControl(describeGrantScope(result.grant))}; revoke with \`toolgate approvals grants revoke ${escapeControl(result.grant.grantId)}\``,
          );
        }
        return EXIT.ok;
      case "cannot-remember":
        printError(`nothing was recorded: ${result.message}`);
        return EXIT.usage;
      case "not-found":
        printError(
          `no approval request with id ${escapeControl(id)}; list them with \`toolgate approvals list\``,
        );
        return EXIT.findings;
      case "expired":
        printError(
          `approval ${escapeControl(id)} expired at ${new Date(result.approval.request.expiresAt).toISOString()}; the application must ask again`,
        );
        return EXIT.findings;
      case "already-decided":
        printError(
          `approval ${escapeControl(id)} is already ${result.approval.state}; a decision is taken once`,
        );
        return EXIT.findings;
    }
  });
}

/** `toolgate approvals grants list`: the remembered approvals in force (with `--all`, every one). */
export async function runGrantsList(options: ApprovalsOptions): Promise<number> {
  const format = parseFormat(options.format ?? "stylish", ["stylish", "json"] as const);
  return withStore(options, async (store) => {
    if (!hasGrants(store)) throw new UsageError(`the store ${store.name} keeps no remembered approvals`);
    const grants = await store.listGrants({
      now: Date.now(),
      ...(options.all === true ? { all: true } : {}),
    });
    if (format === "json") {
      print(escapeControl(JSON.stringify(grants, null, 2), { keepNewlines: true }));
    } else if (grants.length === 0) {
      print(options.all === true ? "no remembered approvals" : "no remembered approvals in force");
    } else {
      print(grants.map(describeGrant).join("\n\n"));
    }
    return EXIT.ok;
  });
}

/** `toolgate approvals grants revoke ID`: no call runs by that grant afterwards. */
export async function runGrantsRevoke(id: string, options: ApprovalsOptions): Promise<number> {
  const revoker = options.approver ?? (process.env.USER || userInfo().username);
  return withStore(options, async (store) => {
    if (!hasGrants(store)) throw new UsageError(`the store ${store.name} keeps no remembered approvals`);
    const result = await store.revokeGrant(id, revoker, Date.now());
    switch (result.status) {
      case "revoked":
        print(`revoked ${escapeControl(id)} as ${escapeControl(revoker)}`);
        print(describeGrant(result.grant));
        return EXIT.ok;
      case "already-revoked":
        printError(`grant ${escapeControl(id)} was already revoked`);
        return EXIT.findings;
      case "not-found":
        printError(
          `no grant with id ${escapeControl(id)}; list them with \`toolgate approvals grants list\``,
        );
        return EXIT.findings;
    }
  });
}
