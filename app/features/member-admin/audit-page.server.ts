import { changesOf } from "~/features/club-facts/changes";
import { AUDIT_PAGE_SIZE, listAudit } from "~/platform/audit.server";
import { CLUB_FACT_KINDS, type ClubFactKind } from "~/platform/db/schema";

/**
 * A page of the audit log as the Audit Log tab shows it. A save of the club's facts keeps the whole
 * list before and after; the page is sent what changed between them instead, not both lists.
 */
export async function loadAuditPage(page: number) {
  const found = await listAudit(page);
  const rows = found.rows.map((row) => {
    const details = row.details;
    if (row.action !== "club_facts.save" || !details) return row;
    const kind = details.kind as ClubFactKind;
    if (!CLUB_FACT_KINDS.includes(kind)) return row;
    const { before, after, ...rest } = details;
    return { ...row, details: { ...rest, changes: changesOf(kind, before, after) } };
  });
  return { rows, total: found.total, pageSize: AUDIT_PAGE_SIZE };
}
