import crypto from "node:crypto";
import type { Role } from "~/game/roles";
import type { Database } from "./client.server";
import { events, profiles } from "./schema";

/**
 * Builders of realistic rows, shared by the tests and the demo data.
 * Each takes overrides for the fields a test cares about.
 */
const FIRST_NAMES = ["Abigail", "Amos", "Clara", "Ezra", "Hattie", "Jeb", "Lottie", "Silas", "Nell", "Wyatt"];
const LAST_NAMES = ["Bright", "Calloway", "Dunmore", "Fairweather", "Holt", "Marsh", "Pickett", "Quill", "Tanner", "Voss"];

function pick<T>(list: readonly T[]): T {
  return list[crypto.randomInt(list.length)]!;
}

export async function createProfile(
  db: Database,
  overrides: Partial<typeof profiles.$inferInsert> & { role?: Role } = {},
) {
  const id = overrides.id ?? crypto.randomUUID();
  const firstName = overrides.firstName ?? pick(FIRST_NAMES);
  const lastName = overrides.lastName ?? pick(LAST_NAMES);
  const [row] = await db
    .insert(profiles)
    .values({
      id,
      firstName,
      lastName,
      email: overrides.email ?? `${firstName}.${lastName}.${id.slice(0, 8)}@example.com`.toLowerCase(),
      name: `${firstName} ${lastName}`,
      role: overrides.role ?? "applicant",
      ...overrides,
    })
    .returning();
  return row!;
}

export async function createEvent(db: Database, overrides: Partial<typeof events.$inferInsert> = {}) {
  const [row] = await db
    .insert(events)
    .values({
      title: overrides.title ?? `Hopewell: ${pick(["The Long Dark", "Silver Fever", "Blood Moon", "First Frost", "The Deep Seam"])}`,
      date: overrides.date ?? "2027-05-14",
      status: overrides.status ?? "future",
      ticketUrl: overrides.ticketUrl ?? null,
      ...overrides,
    })
    .returning();
  return row!;
}
