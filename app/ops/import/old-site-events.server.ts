import { eq } from "drizzle-orm";
import { clubToday } from "~/lib/dates";
import { config } from "~/platform/config.server";
import { letOtherWorkIn } from "~/platform/db/holds.server";
import { profiles } from "~/platform/db/schema";
import { databaseReason, flagRow, type ImportContext } from "./context.server";
import type { CsvRow, CsvTable } from "./csv.server";
import { ImportError } from "./format.server";
import { referencesOf } from "./owners.server";
import { shown, Skip } from "./values.server";

/** More than this many weekends is a typo in the old data, not a member's history. */
const MOST_EVENTS = 1_000;

/**
 * Keeps the old site's count of each member's events (characters.events_attended) with the
 * club's day it was taken: a member's Events Survived starts from it, and the events they attend
 * from that day on are added (profiles.server.ts: eventsSurvived). No attendance record is made
 * up for it, so the attendance pages and their export list only the events really recorded.
 *
 * The count belongs to the member, so it is kept even when their character row was skipped
 * (that row is reported by the characters' pass). The old site is the only source of the count:
 * a different count in a later export replaces it, and the same count leaves it as it is.
 */
export async function importOldSiteEvents(ctx: ImportContext, csv: CsvTable): Promise<void> {
  const refs = await referencesOf(ctx, csv);
  const today = clubToday(new Date(), config().clubTimeZone);
  const counted = new Set<string>();
  const leftOut = (row: CsvRow, why: string) =>
    flagRow(ctx, "characters", csv.file, row.line, "events_attended left out", why);
  for (const row of csv.rows) {
    await letOtherWorkIn();
    const cell = row.cells.events_attended?.trim() ?? null;
    if (cell === null) continue;
    let userId: string;
    try {
      userId = refs.member(row);
    } catch (error) {
      // Reported with the character it belongs to.
      if (error instanceof Skip) continue;
      throw error;
    }
    const attended = /^\d{1,9}$/.test(cell) ? Number(cell) : Number.NaN;
    if (!(attended <= MOST_EVENTS)) {
      leftOut(row, `events_attended ${shown(cell)} is not a count of events: left out`);
      continue;
    }
    if (counted.has(userId)) {
      leftOut(row, "a second events_attended for the same member: the first is kept");
      continue;
    }
    counted.add(userId);
    try {
      await keepCount(ctx, userId, attended, today);
    } catch (error) {
      throw new ImportError(
        `${csv.file} line ${row.line}: the database refused the member's events_attended (${databaseReason(error)}). Nothing was imported.`,
        { cause: error },
      );
    }
  }
}

async function keepCount(ctx: ImportContext, userId: string, attended: number, today: string): Promise<void> {
  const [held] = await ctx.tx
    .select({ attended: profiles.oldSiteEventsAttended })
    .from(profiles)
    .where(eq(profiles.id, userId));
  if (held?.attended === attended) {
    ctx.report.oldSiteEvents.alreadyHere++;
    return;
  }
  // Nothing to start from, and nothing here to correct.
  if (attended === 0 && held?.attended == null) return;
  await ctx.tx
    .update(profiles)
    .set({ oldSiteEventsAttended: attended, oldSiteEventsAsOf: today })
    .where(eq(profiles.id, userId));
  ctx.report.oldSiteEvents.taken++;
}
