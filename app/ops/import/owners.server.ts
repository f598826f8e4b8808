import type { ImportContext } from "./context.server";
import type { CsvRow, CsvTable } from "./csv.server";
import { existingEvents } from "./events.server";
import { existingMembers } from "./members.server";
import { requiredUuid, Skip } from "./values.server";

/**
 * The members and events a file's rows name that the site holds (imported in this run or
 * before): a row naming anyone or anything else is skipped as "missing user" or "missing event".
 */
export async function referencesOf(ctx: ImportContext, csv: CsvTable, { events = false } = {}) {
  const cells = (column: string) =>
    csv.rows.map((row) => row.cells[column]).filter((value): value is string => typeof value === "string");
  const members = await existingMembers(
    ctx,
    cells("user_id").map((id) => id.toLowerCase()),
  );
  const knownEvents = events ? await existingEvents(ctx, cells("event_id")) : new Set<string>();
  return {
    /** The row's member, or a Skip. */
    member(row: CsvRow): string {
      const id = requiredUuid(row.cells.user_id ?? null, "user_id");
      if (!members.has(id)) throw new Skip("missing user", `(${id})`);
      return id;
    },
    /** The row's event, or a Skip. */
    event(row: CsvRow): string {
      const id = requiredUuid(row.cells.event_id ?? null, "event_id");
      if (!knownEvents.has(id)) throw new Skip("missing event", `(${id})`);
      return id;
    },
  };
}
