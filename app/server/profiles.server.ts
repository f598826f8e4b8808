import { and, count, eq, sql } from "drizzle-orm";
import { database } from "./db/client.server";
import { ChangeAwareCache } from "./db/changes.server";
import { applications, characters, eventAttendance, profiles, type EmergencyContact } from "./db/schema";

export type ProfileOverview = Awaited<ReturnType<typeof readProfileOverview>>;

/**
 * Kept in memory per member until a write to a table it reads is announced (migration 0003):
 * a member's profile changes seldom, and every query costs the embedded database a fixed
 * fraction of a millisecond however small its answer. At most a thousand members' (a few
 * kilobytes each, with the application's answers): the first kept go first.
 */
const recentOverviews = new ChangeAwareCache<ProfileOverview>(["profiles", "applications", "characters", "event_attendance"], 1_000);

/** What the member's profile page shows: contact, application, character and events survived. */
export function profileOverview(userId: string): Promise<ProfileOverview> {
  return recentOverviews.get(userId, () => readProfileOverview(userId));
}

/** The four parts in one query rather than four. A member has at most one application and one character. */
async function readProfileOverview(userId: string) {
  const db = await database();
  const survived = db
    .select({ n: count() })
    .from(eventAttendance)
    .where(and(eq(eventAttendance.userId, profiles.id), eq(eventAttendance.paymentStatus, "paid")));
  const [row] = await db
    .select({ contact: profiles.emergencyContact, application: applications, character: characters, survived: sql<number>`(${survived})`.mapWith(Number) })
    .from(profiles)
    .leftJoin(applications, eq(applications.userId, profiles.id))
    .leftJoin(characters, eq(characters.userId, profiles.id))
    .where(eq(profiles.id, userId));
  return { contact: row?.contact ?? null, application: row?.application ?? null, character: row?.character ?? null, survived: row?.survived ?? 0 };
}

/** Saves the member's own emergency contact. Nothing else on the profile changes here. */
export async function saveEmergencyContact(userId: string, contact: EmergencyContact): Promise<void> {
  const db = await database();
  await db.update(profiles).set({ emergencyContact: contact, updatedAt: sql`now()` }).where(eq(profiles.id, userId));
}
