import { userInfo } from "node:os";
import { escapeControl } from "../diagnostics/escape-control.js";
import type { ApprovalStore, StoredApproval } from "../runtime/approval-store.js";
import { openApprovalStore } from "../stores/open-store.js";
import { EXIT, parseFormat, print, printError, UsageError } from "./common.js";
import { storeUrlFromConfig } from "./store-options.js";

/** Options shared by the `approvals` subcommands. */
export interface ApprovalsOptions {
  readonly config?: string;
  readonly store?: string;
  readonly format?: string;
  readonly approver?: string;
  readonly reason?: string;
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
  if (r.context !== undefined) lines.push(`  context:   ${json(r.context)}`);
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

/** `toolgate approvals list`: the open requests of the configured store. */
export async function runApprovalsList(options: ApprovalsOptions): Promise<number> {
  const format = parseFormat(options.format ?? "stylish", ["stylish", "json"] as const);
  return withStore(options, async (store) => {
    await store.expire(Date.now());
    const entries = await store.list(["pending", "approved", "rejected"]);
    if (format === "json") print(JSON.stringify(entries, null, 2));
    else if (entries.length === 0) print("no open approval requests");
    else print(entries.map(describe).join("\n\n"));
    return EXIT.ok;
  });
}

/** `toolgate approvals approve ID` / `reject ID`: records a person's decision for the waiting application. */
export async function runApprovalsDecide(
  id: string,
  approved: boolean,
  options: ApprovalsOptions,
): Promise<number> {
  if (!approved && (options.reason === undefined || options.reason.trim() === "")) {
    throw new UsageError("reject needs --reason TEXT: the model is told why");
  }
  const approver = options.approver ?? (process.env.USER || userInfo().username);
  return withStore(options, async (store) => {
    const result = await store.respond(
      {
        approvalId: id,
        approved,
        approver,
        ...(options.reason === undefined ? {} : { reason: options.reason }),
      },
      Date.now(),
    );
    switch (result.status) {
      case "recorded":
        print(
          `${approved ? "approved" : "rejected"} ${escapeControl(id)} (${escapeControl(result.approval.request.call.toolName)}) as ${escapeControl(approver)}`,
        );
        print(describe(result.approval));
        return EXIT.ok;
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
