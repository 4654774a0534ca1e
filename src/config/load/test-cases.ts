/**
 * The policy's test cases for the load: each test file read and its cases taken into the bundle, a case that
 * names a rule the policy does not have reported as `unknown-rule` (with the near id).
 */
import type { PolicyTestCase } from "../../bundle/policy-bundle.js";
import { stageResult } from "../../diagnostics/diagnostic.js";
import type { Diagnostic, StageResult } from "../diagnostic-codes.js";
import { nearest } from "../nearest.js";
import { diagnosticAt, type ParsedFile, positionOf } from "../parse-yaml.js";
import type { LoadSteps } from "./read-protocol.js";

/**
 * What reading test files needs of the load's `Reader` (named by its shape, so that this file's declarations,
 * which the package exports through `readTestCases`, do not reach the reader's).
 */
export interface TestFileReader {
  read(absolute: string, kind: "tests"): LoadSteps<ParsedFile | undefined>;
  take<T>(result: StageResult<T>): T | undefined;
}

/** Reads the test files and collects their cases (see `readTestCases`). */
export function* readTests(
  reader: TestFileReader,
  files: readonly string[],
  statementIds: ReadonlySet<string> | undefined,
): LoadSteps<PolicyTestCase[]> {
  const cases: PolicyTestCase[] = [];
  for (const absolute of files) {
    const parsed = yield* reader.read(absolute, "tests");
    if (parsed === undefined) continue;
    cases.push(...(reader.take(readTestCases(parsed, statementIds)) ?? []));
  }
  return cases;
}

/**
 * The test cases of a schema-checked test file. A case naming a rule the policy does not have is an
 * `unknown-rule` error (the cases are then `partial`).
 * @param statementIds the ids of the policy's rules and entries; `undefined` when not every policy file
 * could be read, so that the ids are not all known: then no rule is called unknown.
 */
export function readTestCases(
  parsed: ParsedFile,
  statementIds: ReadonlySet<string> | undefined,
): StageResult<PolicyTestCase[]> {
  const diagnostics: Diagnostic[] = [];
  const cases: PolicyTestCase[] = [];
  const tests = (parsed.data as { tests: readonly Record<string, unknown>[] }).tests;
  tests.forEach((test, index) => {
    const at = `/tests/${index}`;
    const call = test.call as { tool: string; arguments?: unknown };
    const rule = test.rule as string | undefined;
    if (rule !== undefined && statementIds !== undefined && !statementIds.has(rule)) {
      diagnostics.push(
        diagnosticAt(
          parsed,
          `${at}/rule`,
          "unknown-rule",
          `the policy has no rule or entry with id "${rule}"; ${ruleHint(rule, statementIds)}`,
        ),
      );
    }
    const span = positionOf(parsed, at);
    cases.push({
      name: test.name as string,
      tool: call.tool,
      arguments: call.arguments === undefined ? {} : call.arguments,
      ...(test.context === undefined ? {} : { context: test.context as { [key: string]: unknown } }),
      expect: test.expect as PolicyTestCase["expect"],
      ...(rule === undefined ? {} : { rule }),
      source: { file: parsed.file, line: span.line, column: span.column },
    });
  });
  return stageResult(cases, diagnostics);
}

function ruleHint(rule: string, ids: ReadonlySet<string>): string {
  const near = nearest(rule, ids);
  return near === undefined ? "check the id" : `did you mean "${near}"?`;
}
