import { eq, sql } from "drizzle-orm";
import { database } from "./db/client.server";
import { profiles, type EmergencyContact } from "./db/schema";

export async function getEmergencyContact(userId: string): Promise<EmergencyContact | null> {
  const db = await database();
  const [row] = await db.select({ contact: profiles.emergencyContact }).from(profiles).where(eq(profiles.id, userId));
  return row?.contact ?? null;
}

/** Saves the member's own emergency contact. Nothing else on the profile changes here. */
export async function saveEmergencyContact(userId: string, contact: EmergencyContact): Promise<void> {
  const db = await database();
  await db.update(profiles).set({ emergencyContact: contact, updatedAt: sql`now()` }).where(eq(profiles.id, userId));
}
