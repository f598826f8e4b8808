import { and, sql, type SQL } from "drizzle-orm";
import { QUEUE_STATUSES, type QueueKind, type QueueState, type QueueStatus } from "~/game/review-queue";
import { isMemberId } from "~/lib/ids";
import { reviewQueue } from "~/platform/db/schema";

/**
 * A review queue's filter (`?status=` and `?assignee=` in a review page's address): read from
 * the address, and applied as SQL to the entries a page reads or in memory to those it holds.
 */

/** What a review page's address asks of its queue: `?status=` and `?assignee=` (mine, nobody or a person's id). */
export type QueueFilter = { status: QueueStatus | "any"; assignee: string };

export function queueFilterOf(address: string | URL): QueueFilter {
  const url = new URL(address);
  const status = url.searchParams.get("status");
  const assignee = url.searchParams.get("assignee") ?? "";
  return {
    status: (QUEUE_STATUSES as readonly string[]).includes(status ?? "") ? (status as QueueStatus) : "any",
    assignee: assignee === "mine" || assignee === "nobody" || isMemberId(assignee) ? assignee : "any",
  };
}

/** The staff member an assignee filter names by id, or null for "any", "nobody" and "mine". */
export function namedAssignee(filter: QueueFilter): string | null {
  return filter.assignee === "any" || filter.assignee === "nobody" || filter.assignee === "mine"
    ? null
    : filter.assignee;
}

/** The person an assignee filter names, or null for "any" / "nobody". */
function assigneeOf(filter: QueueFilter, viewerId: string): string | null {
  return filter.assignee === "mine" ? viewerId : namedAssignee(filter);
}

/**
 * A condition on a review page's entries (whose id is `entryId`) for the filter, or undefined
 * with none: one primary-key probe of review_queue per entry considered.
 */
export function queueFilterSql(kind: QueueKind, entryId: SQL, filter: QueueFilter, viewerId: string): SQL | undefined {
  const row = sql`from ${reviewQueue} where ${reviewQueue.kind} = ${kind} and ${reviewQueue.entryId} = ${entryId}`;
  const conditions: SQL[] = [];
  if (filter.status !== "any")
    conditions.push(sql`coalesce((select ${reviewQueue.status} ${row}), 'new') = ${filter.status}`);
  const person = assigneeOf(filter, viewerId);
  if (filter.assignee === "nobody") conditions.push(sql`(select ${reviewQueue.assigneeId} ${row}) is null`);
  else if (person) conditions.push(sql`(select ${reviewQueue.assigneeId} ${row}) = ${person}`);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/**
 * The same filter as a condition on a review_queue row joined to the entry (null columns when
 * the entry has no row: new, nobody's), for counting many entries at once with one join rather
 * than a probe per entry; undefined with no filter.
 */
export function queueRowFilterSql(filter: QueueFilter, viewerId: string): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.status !== "any") conditions.push(sql`coalesce(${reviewQueue.status}, 'new') = ${filter.status}`);
  const person = assigneeOf(filter, viewerId);
  if (filter.assignee === "nobody") conditions.push(sql`${reviewQueue.assigneeId} is null`);
  else if (person) conditions.push(sql`${reviewQueue.assigneeId} = ${person}`);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** Whether an entry in `state` passes the filter (for pages that hold all of an event's entries in memory). */
export function passesFilter(state: QueueState, filter: QueueFilter, viewerId: string): boolean {
  if (filter.status !== "any" && state.status !== filter.status) return false;
  if (filter.assignee === "nobody") return state.assigneeId === null;
  const person = assigneeOf(filter, viewerId);
  return person === null || state.assigneeId === person;
}
