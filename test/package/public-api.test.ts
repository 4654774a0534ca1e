/**
 * The public surface of `toolgate` is a promise: every value it exports is named here, and the entry lists
 * them one by one (no `export *`), so that a name can only join or leave it by a deliberate change to this
 * list. Formatter internals and the compiled module's plumbing stay out.
 */
import { readFileSync } from "node:fs";
import * as toolgate from "toolgate";
import { describe, expect, it } from "vitest";
import { ROOT } from "./built-package.js";

const PUBLIC_VALUES = [
  "AUDIT_EVENT_TYPES",
  "ApprovalError",
  "ApprovalStoreFullError",
  "CONTROLLER_MODES",
  "ControllerSetupError",
  "DEFAULT_APPROVAL_TTL_MS",
  "DEFAULT_MAX_ARGUMENT_BYTES",
  "DEFAULT_MAX_CLOSED_REQUESTS",
  "DEFAULT_MAX_OPEN_REQUESTS",
  "DEFAULT_MODE",
  "DEFAULT_SESSION_KEY",
  "DELIVERY_HEADER",
  "DIAGNOSTICS",
  "DIAGNOSTIC_CODES",
  "DuplicateToolError",
  "GrantError",
  "InboxConfigError",
  "InvalidInputError",
  "InvalidOptionError",
  "JsonlAuditSink",
  "MAX_DATA_DEPTH",
  "MAX_GRANT_MS",
  "MemoryApprovalStore",
  "MemoryAuditSink",
  "NotificationError",
  "OTEL_ATTRIBUTES",
  "OTEL_METRICS",
  "OUTPUT_FORMATS",
  "OtelAuditSink",
  "PendingApprovals",
  "PolicyConfigError",
  "PolicyDefinitionError",
  "PostgresApprovalStore",
  "PostgresAuditSink",
  "SIGNATURE_HEADER",
  "SqliteApprovalStore",
  "SqliteAuditSink",
  "StoreUnavailableError",
  "TIMESTAMP_HEADER",
  "ToolController",
  "ToolFailure",
  "ToolPolicy",
  "ToolRegistry",
  "ToolRuntime",
  "ToolgateError",
  "ValidatorFactory",
  "allHooks",
  "canonicalJson",
  "commandNotifier",
  "compileArgumentValidator",
  "compileController",
  "createController",
  "decideApproval",
  "declarationPathFor",
  "defineTool",
  "formatDiagnostics",
  "generateTypes",
  "hasErrors",
  "hashCanonical",
  "isControllerMode",
  "isOutputFormat",
  "isToolFailure",
  "isToolgateError",
  "lintPolicy",
  "lintPolicySync",
  "loadPolicy",
  "loadPolicyResult",
  "loadPolicyResultSync",
  "newApprovalId",
  "openApprovalStore",
  "openAuditSink",
  "policyFingerprint",
  "reloadController",
  "runPolicyTests",
  "sortDiagnostics",
  "startInbox",
  "verifyAuditLog",
  "verifyWebhookSignature",
  "watchPolicy",
  "webhookNotifier",
];

describe("the public surface of toolgate", () => {
  it("exports exactly the listed values", () => {
    expect(Object.keys(toolgate).sort()).toEqual([...PUBLIC_VALUES].sort());
  });

  it("names every export: src/index.ts has no `export *`", () => {
    const source = readFileSync(`${ROOT}src/index.ts`, "utf8");
    expect(source).not.toMatch(/export\s+\*/);
  });

  it("leaves out formatter internals and the compiled module's plumbing", () => {
    for (const name of [
      "escapeData",
      "escapeXmlText",
      "stripInvalidXmlChars",
      "RULE_DESCRIPTIONS",
      "fingerprintDiagnostic",
      "ajvEqual",
      "AjvValidationError",
      "fromAjvValidator",
      "schemaPattern",
      "verifyCompiledPolicy",
      "fingerprintData",
      "compileCondition",
      "assertHandlersFit",
      "errorResult",
      "notifiersFromSettings",
      "resolveStoreUrl",
    ]) {
      expect(Object.keys(toolgate)).not.toContain(name);
    }
  });
});
