import { resolve } from "node:path";
import { loadPolicyResultSync } from "../config/load-policy.js";
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
