/** What the SQLite and PostgreSQL approval stores share about grants: the row shape and its conversion. */
import { ToolgateError } from "../runtime/errors.js";
import type { ApprovalGrant } from "../runtime/grants.js";

/** The columns a grant read returns. PostgreSQL returns `bigint` as a string. */
export interface GrantRow {
  readonly body: string;
  readonly revoked_at: number | string | null;
  readonly revoked_by: string | null;
}

// PostgreSQL text cannot hold NUL; the index columns are copies, the JSON body (escaped) is the truth.
const noNul = (s: string): string => s.replaceAll("\u0000", "\uFFFD");

/** The columns of a new grant. */
export function toGrantColumns(grant: ApprovalGrant) {
  return {
    grant_id: grant.grantId,
    grant_tool: noNul(grant.toolName),
    grant_hash: noNul(grant.argumentsHash),
    grant_approval: grant.approvalId,
    grant_created: grant.createdAt,
    grant_expires: grant.expiresAt,
    grant_body: JSON.stringify(grant),
  };
}

/** Reads a grant row back, with its revocation. Throws when the row is not what this code wrote. */
export function toGrant(row: GrantRow): ApprovalGrant {
  const grant = JSON.parse(row.body) as ApprovalGrant;
  if (grant === null || typeof grant !== "object" || grant.kind !== "approval-grant") {
    throw new ToolgateError("store-corrupt", "a stored grant is not a grant");
  }
  return row.revoked_at === null
    ? grant
    : { ...grant, revokedAt: Number(row.revoked_at), revokedBy: row.revoked_by ?? "" };
}
