import { countOf } from "~/lib/plural";
import type { Database } from "~/platform/db/client.server";
import { attendanceValues, orderValues, pelValues, pick } from "~/platform/db/factories";
import { costumePhotos, costumeReviews, eventAttendance, merchantOrders, pels } from "~/platform/db/schema";
import { costumeKeys, saveFile } from "~/platform/storage/storage.server";
import { insertInBatches, sample, TINY_PNG } from "./seed-tools.server";

/**
 * The busiest pages of the large data set, the same size at every --scale: the next event with
 * 300 attendees (its event-day sheet), the newest past event with 20,000 post-event letters (a
 * review queue that long), and the demo player registered for every upcoming event with costume
 * photos, verdicts and orders (the events page with a member's status).
 */
export type DemoBusiest = { eventDayAttendees: number; queuePels: number };
export const DEMO_BUSIEST: DemoBusiest = { eventDayAttendees: 300, queuePels: 20_000 };

type SeededSoFar = {
  inserted: { id: string; date: string; status: string }[];
  past: { id: string; date: string }[];
  withCharacters: { id: string }[];
  characterName: Map<string, string>;
  decidedBy: string | null;
  afterEvent: (eventDate: string) => Date;
  /** The named player account's id (DEMO_ACCOUNTS.player). */
  demoPlayer: string | undefined;
};

/** The busiest pages' data (see DEMO_BUSIEST), added to the club already made. */
export async function seedBusiest(
  db: Database,
  busiest: DemoBusiest,
  made: SeededSoFar,
  log: (message: string) => void,
) {
  const { inserted, past, withCharacters, characterName, decidedBy, afterEvent, demoPlayer } = made;
  const upcoming = inserted.filter((e) => e.status === "future").sort((a, b) => a.date.localeCompare(b.date));
  const nextEvent = upcoming[0];
  if (nextEvent) {
    const others = sample(
      withCharacters.filter((m) => m.id !== demoPlayer),
      busiest.eventDayAttendees - 1,
    ).map((m) => m.id);
    const who = demoPlayer ? [demoPlayer, ...others] : others;
    await insertInBatches(who, (batch) =>
      db.insert(eventAttendance).values(
        batch.map((userId) =>
          attendanceValues(userId, nextEvent.id, {
            characterName: characterName.get(userId) ?? null,
            createdBy: decidedBy,
          }),
        ),
      ),
    );
    // A third have sent a costume photo: most approved, some asked for changes.
    const photos = [];
    const verdicts = [];
    for (const [i, userId] of who.entries()) {
      if (i % 3 !== 0) continue;
      photos.push(await demoCostumePhoto(userId, nextEvent.id));
      if (i % 9 !== 6)
        verdicts.push({
          userId,
          eventId: nextEvent.id,
          verdict: i % 9 === 3 ? ("changes_requested" as const) : ("approved" as const),
          note: i % 9 === 3 ? "A hat, please." : "",
          reviewedBy: decidedBy,
        });
    }
    await insertInBatches(photos, (batch) => db.insert(costumePhotos).values(batch));
    await insertInBatches(verdicts, (batch) => db.insert(costumeReviews).values(batch));
    log(`${countOf(who.length, "attendee")} at the next event, ${countOf(photos.length, "costume photo")}`);
  }
  // The demo player is registered for every later upcoming event too, with a photo and an order for each.
  if (demoPlayer) {
    for (const event of upcoming.slice(1)) {
      await db.insert(eventAttendance).values(
        attendanceValues(demoPlayer, event.id, {
          characterName: characterName.get(demoPlayer) ?? null,
          createdBy: decidedBy,
        }),
      );
      await db.insert(costumePhotos).values(await demoCostumePhoto(demoPlayer, event.id));
    }
    for (const event of upcoming) await db.insert(merchantOrders).values(orderValues(demoPlayer, event.id));
  }
  const newestPast = [...past].sort((a, b) => b.date.localeCompare(a.date))[0];
  if (newestPast) {
    const writers = withCharacters.map((m) => m.id);
    const rows = Array.from({ length: busiest.queuePels }, () => {
      const userId = pick(writers);
      return pelValues(userId, newestPast.id, {
        characterName: characterName.get(userId) ?? "No character",
        createdAt: afterEvent(newestPast.date),
      });
    });
    await insertInBatches(rows, (batch) => db.insert(pels).values(batch));
    log(`${countOf(rows.length, "post-event letter")} for the newest past event`);
  }
}

/** A costume photo row with its (tiny) image and thumbnail saved. */
async function demoCostumePhoto(userId: string, eventId: string) {
  const { fileKey, thumbKey } = costumeKeys(userId, "png");
  await Promise.all([saveFile(fileKey, TINY_PNG), saveFile(thumbKey, TINY_PNG)]);
  return { userId, eventId, fileKey, thumbKey, fileType: "image/png", fileSize: TINY_PNG.length, width: 1, height: 1 };
}
