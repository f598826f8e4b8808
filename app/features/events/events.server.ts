import { asc, desc, eq, ne } from "drizzle-orm";
import type { EventInput } from "./events.form";
import { ChangeAwareCache } from "~/platform/db/changes.server";
import { database } from "~/platform/db/client.server";
import { events } from "~/platform/db/schema";

export type UpcomingEvent = {
  id: string;
  title: string;
  date: string;
  ticketUrl: string | null;
  ticketPriceCents: number | null;
  ticketPlaces: number | null;
  createdAt: Date;
};

/** Every member's Events page reads the same list; it is read again after any change to events. */
const upcomingEvents = new ChangeAwareCache<readonly UpcomingEvent[]>({
  name: "upcoming events",
  tables: ["events"],
  maxAgeMs: 60_000,
  maxEntries: 1,
});

/** Events whose status is future, soonest first (docs/product.md#events). */
export async function listUpcomingEvents(): Promise<readonly UpcomingEvent[]> {
  return upcomingEvents.get("upcoming", async () => {
    const db = await database();
    return db
      .select({
        id: events.id,
        title: events.title,
        date: events.date,
        ticketUrl: events.ticketUrl,
        ticketPriceCents: events.ticketPriceCents,
        ticketPlaces: events.ticketPlaces,
        createdAt: events.createdAt,
      })
      .from(events)
      .where(eq(events.status, "future"))
      .orderBy(asc(events.date), asc(events.title));
  });
}

/** One listed event (for its calendar file), from the same kept list; undefined when not listed. */
export async function findUpcomingEvent(id: string): Promise<UpcomingEvent | undefined> {
  return (await listUpcomingEvents()).find((event) => event.id === id);
}

/**
 * Every event that is not cancelled, latest first, as a form's choice of event: the attendance
 * tool's, and research filed under an event.
 */
export async function listEventsNotCancelled(): Promise<{ id: string; title: string; date: string }[]> {
  const db = await database();
  return db
    .select({ id: events.id, title: events.title, date: events.date })
    .from(events)
    .where(ne(events.status, "cancelled"))
    .orderBy(desc(events.date));
}

export type EventRow = typeof events.$inferSelect;

/** Every event, newest first, for the managers' list. */
export async function listAllEvents(): Promise<EventRow[]> {
  const db = await database();
  return db.select().from(events).orderBy(desc(events.date), asc(events.title));
}

export async function createEvent(input: EventInput): Promise<EventRow> {
  const db = await database();
  const [row] = await db.insert(events).values(input).returning();
  return row!;
}

/** False when there is no such event. */
export async function updateEvent(id: string, input: EventInput): Promise<boolean> {
  const db = await database();
  const updated = await db.update(events).set(input).where(eq(events.id, id)).returning({ id: events.id });
  return updated.length === 1;
}

/** Events are cancelled, never deleted: letters, orders and attendance refer to them. */
export async function cancelEvent(id: string): Promise<boolean> {
  const db = await database();
  const updated = await db
    .update(events)
    .set({ status: "cancelled" })
    .where(eq(events.id, id))
    .returning({ id: events.id });
  return updated.length === 1;
}
