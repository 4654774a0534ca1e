import { verifyAuditLog } from "../stores/jsonl-audit-sink.js";
import { EXIT, print, printError, UsageError } from "./common.js";
import { storeUrlFromConfig } from "./store-options.js";

/** `toolgate audit verify [PATH]`: checks the hash chain of a JSONL audit log. */
export async function runAuditVerify(
  path: string | undefined,
  options: { readonly config?: string },
): Promise<number> {
  let file = path;
  if (file === undefined) {
    const url = storeUrlFromConfig(options, "audit");
    if (!url.startsWith("jsonl:"))
      throw new UsageError(`the audit sink is ${url}; audit verify checks jsonl: logs — pass PATH`);
    file = url.slice("jsonl:".length);
  }
  let check: ReturnType<typeof verifyAuditLog>;
  try {
    check = verifyAuditLog(file);
  } catch (error) {
    const code = ((error as Error).cause as { code?: unknown } | undefined)?.code;
    printError(
      code === "ENOENT"
        ? `${file}: no audit log there — nothing has been recorded to it yet, or the path is wrong ` +
            "(check audit.sink in the config, or the PATH given)"
        : (error as Error).message,
    );
    return EXIT.usage;
  }
  if (check.ok) {
    print(`${file}: ${check.lines} line(s), hash chain intact`);
    return EXIT.ok;
  }
  printError(`${file}:${check.line}: ${check.message}`);
  return EXIT.findings;
}
