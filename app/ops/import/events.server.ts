import { eq } from "drizzle-orm";
import { EVENT_TITLE_MAX, TICKET_URL_MAX } from "~/features/events/events.form";
import { EVENT_STATUSES, type EventStatus } from "~/game/roles";
import { isUuid } from "~/lib/ids";
import { events } from "~/platform/db/schema";
import { eachRow, existingIds, flagRow, saveVersioned, type ImportContext } from "./context.server";
import type { CsvRow, CsvTable } from "./csv.server";
import { limitedText, overLimit, parseTimestamp, requiredUuid, shown, Skip, tooLong } from "./values.server";

/** The event's day as written ("2025-08-15", or the day part of a timestamp). */
function eventDate(row: CsvRow): string {
  const cell = row.cells.date ?? null;
  const day = cell?.trim().slice(0, 10) ?? "";
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !parseTimestamp(day))
    throw new Skip(cell === null ? "no date" : "unreadable date", shown(cell));
  return day;
}

/** The old site showed only "future" events; any other status it used is read as past (flagged), a known one kept. */
function eventStatus(ctx: ImportContext, file: string, row: CsvRow): EventStatus {
  const cell = row.cells.status?.trim().toLowerCase() ?? null;
  if (cell !== null && (EVENT_STATUSES as readonly string[]).includes(cell)) return cell as EventStatus;
  flagRow(
    ctx,
    "events",
    file,
    row.line,
    "status read as past",
    `status ${shown(row.cells.status ?? null)} read as past`,
  );
  return "past";
}

/** The ticket link, when it is one the site may show (https). */
function ticketUrl(ctx: ImportContext, file: string, row: CsvRow): string | null {
  const cell = row.cells.stripe?.trim() ?? null;
  if (cell === null) return null;
  const leftOut = (why: string) => {
    flagRow(ctx, "events", file, row.line, "ticket link left out", `stripe ${why}: left out`);
    return null;
  };
  if (tooLong(cell, TICKET_URL_MAX)) return leftOut(`is too long ${overLimit(cell, TICKET_URL_MAX)}`);
  try {
    if (new URL(cell).protocol === "https:") return cell;
  } catch {
    // Not a link at all: left out as below.
  }
  return leftOut(`${shown(cell)} is not an https link`);
}

/** Imports the events, keeping their ids (the other tables refer to them). */
export async function importEvents(ctx: ImportContext, csv: CsvTable): Promise<void> {
  const seen = new Set<string>();
  await eachRow(ctx, "events", csv, async (row) => {
    const id = requiredUuid(row.cells.id ?? null, "id");
    if (seen.has(id)) throw new Skip("the id appears twice in the file");
    seen.add(id);
    const title = limitedText(row.cells.title?.trim() ?? null, "title", EVENT_TITLE_MAX);
    if (!title) throw new Skip("no title");
    const date = eventDate(row);
    const stamp =
      parseTimestamp(row.cells.updated_at ?? null) ??
      parseTimestamp(row.cells.created_at ?? null) ??
      parseTimestamp(date)!;
    const values = {
      title,
      date,
      status: eventStatus(ctx, csv.file, row),
      ticketUrl: ticketUrl(ctx, csv.file, row),
      createdAt: stamp,
    };
    const [existing] = await ctx.tx.select({ stamp: events.createdAt }).from(events).where(eq(events.id, id));
    return saveVersioned(existing, stamp, {
      insert: () => ctx.tx.insert(events).values({ id, ...values }),
      update: () => ctx.tx.update(events).set(values).where(eq(events.id, id)),
    });
  });
}

/** Which of `ids` are events of the site (imported now or before). */
export async function existingEvents(ctx: ImportContext, ids: string[]): Promise<Set<string>> {
  // Only UUIDs reach the query: the column's type would refuse anything else.
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))].filter(isUuid);
  return existingIds(ctx, events.id, unique);
}
