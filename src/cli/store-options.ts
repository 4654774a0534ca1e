import { resolve } from "node:path";
import { loadPolicyResultSync } from "../config/load-policy.js";
import type { GrantSettings } from "../inbox/decide.js";
import { DEFAULT_SESSION_KEY, MAX_GRANT_MS } from "../runtime/grants.js";
import { resolveStoreUrl } from "../stores/open-store.js";
import { UsageError } from "./common.js";

/**
 * The store URL a command works on: `--store`, else the config's setting (`approvals` or `audit.sink`).
 * @throws UsageError when neither names one.
 */
export function storeUrlFromConfig(
  options: { readonly config?: string; readonly store?: string },
  key: "approvals" | "audit",
): string {
  if (options.store !== undefined) return options.store;
  const loaded = loadPolicyResultSync(options.config === undefined ? {} : { config: options.config });
  if (loaded.bundle === undefined) {
    const first = loaded.diagnostics.find((d) => d.severity === "error");
    throw new UsageError(
      `cannot read the ${key} setting: ${first === undefined ? "configuration has errors" : `${first.file}:${first.line}:${first.column} ${first.message}`}; fix it (toolgate lint) or ${key === "approvals" ? "pass --store URL" : "pass the log's PATH"}`,
    );
  }
  const url = key === "approvals" ? loaded.bundle.settings.approvals : loaded.bundle.settings.audit?.sink;
  if (url === undefined) {
    throw new UsageError(
      `the configuration sets no ${key === "approvals" ? "approvals store" : "audit sink"}; add \`${key === "approvals" ? "approvals: sqlite:.toolgate/state.db" : "audit: { sink: jsonl:.toolgate/audit.jsonl }"}\` to it or ${key === "approvals" ? "pass --store URL" : "pass the log's PATH"}`,
    );
  }
  return resolveStoreUrl(url, resolve(process.cwd(), loaded.bundle.configDir));
}

/**
 * How approvers may remember approvals: the config's `grants` (cap in hours, session field), or the defaults
 * (24 hours, `session_id`) when there is no configuration to read (only `--store` given). A configuration
 * that exists but has errors is refused, so that `max_hours: 0` can never be skipped by a typo elsewhere.
 * @throws UsageError when the configuration named by `--config` (or found) cannot be read.
 */
export function grantSettingsFromConfig(options: {
  readonly config?: string;
  readonly store?: string;
}): GrantSettings {
  const loaded = loadPolicyResultSync(options.config === undefined ? {} : { config: options.config });
  if (loaded.bundle === undefined) {
    if (!loaded.configFound && options.store !== undefined && options.config === undefined) {
      return { maxMs: MAX_GRANT_MS, sessionKey: DEFAULT_SESSION_KEY };
    }
    const first = loaded.diagnostics.find((d) => d.severity === "error");
    throw new UsageError(
      `cannot read the grants setting: ${first === undefined ? "configuration has errors" : `${first.file}:${first.line}:${first.column} ${first.message}`}; fix it (toolgate lint)`,
    );
  }
  const grants = loaded.bundle.settings.grants;
  return {
    maxMs: Math.min(MAX_GRANT_MS, (grants?.maxHours ?? 24) * 3_600_000),
    sessionKey: grants?.sessionKey ?? DEFAULT_SESSION_KEY,
  };
}
