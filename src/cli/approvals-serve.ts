/**
 * `toolgate approvals serve [--config PATH] [--store URL] [--listen HOST:PORT] [--token-file FILE]
 * [--trusted-header NAME]`: the web inbox over the configured approval store. Runs until SIGINT or SIGTERM.
 * The token comes from `--token-file` or the `TOOLGATE_INBOX_TOKEN` environment variable, never from the
 * command line (where other users of the machine could read it).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { loadPolicyResultSync } from "../config/load-policy.js";
import type { StatementInfo } from "../inbox/html.js";
import { InboxConfigError, startInbox } from "../inbox/server.js";
import { DEFAULT_SESSION_KEY, MAX_GRANT_MS } from "../runtime/grants.js";
import { openApprovalStore, resolveStoreUrl } from "../stores/open-store.js";
import { EXIT, parseListen, print, UsageError } from "./common.js";

/** Options of `approvals serve`. */
export interface ServeOptions {
  readonly config?: string;
  readonly store?: string;
  readonly listen?: string;
  readonly tokenFile?: string;
  readonly trustedHeader?: string;
}

function readToken(options: ServeOptions): string | undefined {
  if (options.tokenFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(options.tokenFile, "utf8");
    } catch (error) {
      throw new UsageError(
        `cannot read --token-file ${options.tokenFile}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const token = text.trim();
    if (token === "")
      throw new UsageError(`--token-file ${options.tokenFile} is empty; put a random token in it`);
    return token;
  }
  const env = process.env.TOOLGATE_INBOX_TOKEN;
  return env === undefined || env.trim() === "" ? undefined : env.trim();
}

/**
 * Serves the inbox until a signal stops it.
 * @returns 0 after SIGINT/SIGTERM; 2 for a usage error (such as a non-loopback address without a token).
 */
export async function runApprovalsServe(options: ServeOptions, signal?: AbortSignal): Promise<number> {
  const listen = parseListen(options.listen ?? "127.0.0.1:7807");
  const token = readToken(options);
  const loaded = loadPolicyResultSync(options.config === undefined ? {} : { config: options.config });
  const bundle = loaded.bundle;
  if (
    bundle === undefined &&
    (options.store === undefined || loaded.configFound || options.config !== undefined)
  ) {
    const first = loaded.diagnostics.find((d) => d.severity === "error");
    throw new UsageError(
      `cannot read the configuration: ${first === undefined ? "it has errors" : `${first.file}:${first.line}:${first.column} ${first.message}`}; fix it (toolgate lint)`,
    );
  }
  const configured = bundle?.settings.approvals;
  const url =
    options.store ??
    (configured === undefined || bundle === undefined
      ? undefined
      : resolveStoreUrl(configured, resolve(process.cwd(), bundle.configDir)));
  if (url === undefined) {
    throw new UsageError(
      "the configuration sets no approvals store; add `approvals: sqlite:.toolgate/state.db` to it or pass --store URL",
    );
  }
  if (url === "memory") {
    throw new UsageError(
      "the approvals store is `memory`, which lives inside the application; use sqlite:PATH or postgres://… to serve an inbox",
    );
  }
  const statements = new Map<string, StatementInfo>();
  for (const s of bundle?.statements ?? []) {
    statements.set(s.id, {
      action: s.action,
      reason: s.reason,
      ...(s.source === undefined ? {} : { source: s.source }),
    });
  }
  const grants = bundle?.settings.grants;
  const store = openApprovalStore(url);
  let inbox: Awaited<ReturnType<typeof startInbox>>;
  try {
    inbox = await startInbox({
      store,
      host: listen.host,
      port: listen.port,
      ...(token === undefined ? {} : { token }),
      ...(options.trustedHeader === undefined ? {} : { trustedHeader: options.trustedHeader }),
      grants: {
        maxMs: Math.min(MAX_GRANT_MS, (grants?.maxHours ?? 24) * 3_600_000),
        sessionKey: grants?.sessionKey ?? DEFAULT_SESSION_KEY,
      },
      redact: new Map(Object.entries(bundle?.settings.audit?.redact ?? {})),
      statements,
      log: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (error) {
    await store.close();
    if (error instanceof InboxConfigError) throw new UsageError(error.message);
    if (
      error instanceof Error &&
      "code" in error &&
      typeof error.code === "string" &&
      /^E[A-Z]+$/.test(error.code)
    ) {
      throw new UsageError(`cannot listen on ${listen.host}:${listen.port}: ${error.message}`);
    }
    throw error;
  }
  print(
    `toolgate approvals inbox at ${inbox.url} (store ${store.name}${token === undefined ? "" : ", token sign-in"}${options.trustedHeader === undefined ? "" : `, people named by ${options.trustedHeader}`})`,
  );
  await new Promise<void>((done) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      done();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    signal?.addEventListener("abort", stop, { once: true });
  });
  await inbox.close();
  await store.close();
  return EXIT.ok;
}
