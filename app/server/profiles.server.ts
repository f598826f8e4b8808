import { and, count, eq, sql } from "drizzle-orm";
import { database } from "./db/client.server";
import { applications, characters, eventAttendance, profiles, type EmergencyContact } from "./db/schema";

/**
 * What the member's profile page shows, in one query rather than four: each query costs
 * the embedded database a fixed fraction of a millisecond however small its answer.
 * A member has at most one application and one character.
 */
export async function profileOverview(userId: string) {
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
