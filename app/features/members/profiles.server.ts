import { and, eq, ne, sql } from "drizzle-orm";
import { clubToday } from "~/lib/dates";
import { config } from "~/platform/config.server";
import { database } from "~/platform/db/client.server";
import { ChangeAwareCache } from "~/platform/db/changes.server";
import {
  applications,
  characters,
  eventAttendance,
  events,
  profiles,
  type EmergencyContact,
} from "~/platform/db/schema";

export type ProfileOverview = Omit<KeptOverview, "attendedDates" | "oldSite"> & {
  survived: number;
  /** How many of the events survived the club's old site counted, when it counted more than this site's records show (the page says so). */
  survivedOnOldSite: number;
};
type KeptOverview = Awaited<ReturnType<typeof readProfileOverview>>;

/**
 * Kept in memory per member until a write to a table it reads is announced (migration 0003):
 * a member's profile changes seldom, and every query costs the embedded database a fixed
 * fraction of a millisecond however small its answer. At most a thousand members' (a few
 * kilobytes each, with the application's answers): the first kept go first. What is kept is
 * the dates of the events attended, not their count: an event's date passes without any
 * write, so the count of events survived is made from them on every read.
 */
const recentOverviews = new ChangeAwareCache<KeptOverview>({
  name: "profile overviews",
  tables: ["profiles", "applications", "characters", "event_attendance", "events"],
  // A member's own page: a minute's delay is acceptable should an announcement be lost.
  maxAgeMs: 60_000,
  maxEntries: 1_000,
});

/** What the member's profile page shows: contact, application, character and events survived. */
export async function profileOverview(
  userId: string,
  today: string = clubToday(new Date(), config().clubTimeZone),
): Promise<ProfileOverview> {
  const { attendedDates, oldSite, ...overview } = await recentOverviews.get(userId, () => readProfileOverview(userId));
  return { ...overview, ...eventsSurvived(attendedDates, today, oldSite) };
}

/** The old site's count of a member's events, and the club's day the import took it (see schema: profiles.oldSiteEventsAttended). */
export type OldSiteEvents = { attended: number; asOf: string };

/**
 * An event is survived once its day is over where the club plays; a cancelled one never is.
 * For a member of the old site, its count stands for the events before the day it was taken:
 * those are the larger of that count and this site's records of them (imported or added since),
 * so an event is never counted twice and never fewer than the records show; events from that day
 * on are counted from the records as for everyone.
 */
export function eventsSurvived(
  attendedDates: readonly string[],
  today: string,
  oldSite: OldSiteEvents | null = null,
): { survived: number; survivedOnOldSite: number } {
  const passed = attendedDates.filter((date) => date < today);
  if (!oldSite) return { survived: passed.length, survivedOnOldSite: 0 };
  const recordedBefore = passed.filter((date) => date < oldSite.asOf).length;
  const since = passed.length - recordedBefore;
  if (oldSite.attended <= recordedBefore) return { survived: passed.length, survivedOnOldSite: 0 };
  return { survived: oldSite.attended + since, survivedOnOldSite: oldSite.attended };
}

/** The four parts in one query rather than four. A member has at most one application and one character. */
async function readProfileOverview(userId: string) {
  const db = await database();
  // The dates of the events the member is recorded at as paid, cancelled events left out.
  const attended = db
    .select({ dates: sql<string[]>`coalesce(array_agg(${events.date}::text), '{}')`.as("dates") })
    .from(eventAttendance)
    .innerJoin(events, eq(events.id, eventAttendance.eventId))
    .where(
      and(
        eq(eventAttendance.userId, profiles.id),
        eq(eventAttendance.paymentStatus, "paid"),
        ne(events.status, "cancelled"),
      ),
    );
  const [row] = await db
    .select({
      contact: profiles.emergencyContact,
      application: applications,
      character: characters,
      attendedDates: sql<string[]>`(${attended})`,
      oldSiteAttended: profiles.oldSiteEventsAttended,
      oldSiteAsOf: profiles.oldSiteEventsAsOf,
    })
    .from(profiles)
    .leftJoin(applications, eq(applications.userId, profiles.id))
    .leftJoin(characters, eq(characters.userId, profiles.id))
    .where(eq(profiles.id, userId));
  const oldSite: OldSiteEvents | null =
    row?.oldSiteAttended != null && row.oldSiteAsOf ? { attended: row.oldSiteAttended, asOf: row.oldSiteAsOf } : null;
  return {
    contact: row?.contact ?? null,
    application: row?.application ?? null,
    character: row?.character ?? null,
    attendedDates: row?.attendedDates ?? [],
    oldSite,
  };
}

/** Saves the member's own emergency contact. Nothing else on the profile changes here. */
export async function saveEmergencyContact(userId: string, contact: EmergencyContact): Promise<void> {
  const db = await database();
  await db
    .update(profiles)
    .set({ emergencyContact: contact, updatedAt: sql`now()` })
    .where(eq(profiles.id, userId));
}
