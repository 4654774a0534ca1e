/** Diagnostics shared by the formatter tests. */

import type { Diagnostic } from "../../src/diagnostics/index.js";

/** A small lint result over two files, deliberately out of order. */
export const SAMPLE: readonly Diagnostic[] = [
  {
    code: "unlisted-tool",
    severity: "warning",
    message: 'tool "list_dir" has no statement, so it is always denied; add it to allow, ask or deny',
    file: "policies/policy.yaml",
    line: 12,
    column: 3,
    path: "/allow",
  },
  {
    code: "overlap",
    severity: "error",
    message: 'tool "apply_patch" is in both allow (line 3) and ask (line 4); keep it in one',
    file: "policies/policy.yaml",
    line: 4,
    column: 10,
    endLine: 4,
    endColumn: 21,
    path: "/ask/0",
  },
  {
    code: "yaml-syntax",
    severity: "error",
    message: "unexpected end of flow sequence",
    file: "policies/tools/fs.yaml",
    line: 7,
    column: 1,
  },
];
