import crypto from "node:crypto";
import { APPLICATION_TEXT_QUESTIONS } from "~/game/application";
import { STARTING_CABINS } from "~/game/cabins";
import { STARTING_COMMON_JOBS, STARTING_FACTION_ONLY_JOBS, STARTING_FACTIONS } from "~/game/factions";
import { BUILT_IN_MERCHANT_ITEMS, builtInPricedItems, builtInTotalCents } from "~/game/merchant";
import { PEL_QUESTIONS } from "~/game/pel";
import type { Role } from "~/game/roles";
import type { Database } from "./client.server";
import {
  type applications,
  type characters,
  type eventAttendance,
  events,
  type letters,
  type merchantOrders,
  type pels,
  profiles,
  type research,
  type WrittenAnswer,
} from "./schema";
import { EVENT_TITLES, FEELINGS, FIRST_NAMES, HAPPENINGS, LAST_NAMES, NICKNAMES, PLACES } from "./factory-words";

/**
 * Builders of realistic rows, shared by the tests and the demo data (`npm run seed:demo`).
 * The `*Values` builders return rows to insert (so the demo can insert thousands at once);
 * `create*` insert one and return it. Each takes overrides for the fields a caller cares about.
 */
export function pick<T>(list: readonly T[]): T {
  return list[crypto.randomInt(list.length)]!;
}

/** A few sentences of play, varied enough that searches find some rows and not others. */
export function prose(sentences = 3): string {
  return Array.from({ length: sentences }, () => `At ${pick(PLACES)}, ${pick(HAPPENINGS)}. ${pick(FEELINGS)}`).join(
    " ",
  );
}

/** A moment between `daysAgo` days ago and now, for created-at columns. */
export function recentDate(daysAgo = 365): Date {
  return new Date(Date.now() - crypto.randomInt(Math.max(1, daysAgo * 86_400)) * 1000);
}

export function profileValues(
  overrides: Partial<typeof profiles.$inferInsert> & { role?: Role } = {},
): typeof profiles.$inferInsert {
  const id = overrides.id ?? crypto.randomUUID();
  const firstName = overrides.firstName ?? pick(FIRST_NAMES);
  const lastName = overrides.lastName ?? pick(LAST_NAMES);
  return {
    id,
    firstName,
    lastName,
    email: overrides.email ?? `${firstName}.${lastName}.${id.slice(0, 8)}@example.com`.toLowerCase(),
    name: `${firstName} ${lastName}`,
    role: overrides.role ?? "applicant",
    ...overrides,
  };
}

export async function createProfile(
  db: Database,
  overrides: Partial<typeof profiles.$inferInsert> & { role?: Role } = {},
) {
  const [row] = await db.insert(profiles).values(profileValues(overrides)).returning();
  return row!;
}

export function eventValues(overrides: Partial<typeof events.$inferInsert> = {}): typeof events.$inferInsert {
  return {
    title: `Hopewell: ${pick(EVENT_TITLES)}`,
    date: "2027-05-14",
    status: "future",
    ticketUrl: null,
    ...overrides,
  };
}

export async function createEvent(db: Database, overrides: Partial<typeof events.$inferInsert> = {}) {
  const [row] = await db.insert(events).values(eventValues(overrides)).returning();
  return row!;
}

export function characterValues(
  userId: string,
  overrides: Partial<typeof characters.$inferInsert> = {},
): typeof characters.$inferInsert {
  // From the lists a site starts with, which the demo and the tests' club keep.
  const faction = overrides.faction ?? pick(STARTING_FACTIONS);
  const onlyFor = Object.entries(STARTING_FACTION_ONLY_JOBS).filter(([, only]) => only === faction);
  return {
    userId,
    characterName: `${pick(FIRST_NAMES)} "${pick(NICKNAMES)}" ${pick(LAST_NAMES)}`,
    faction,
    job: pick([...STARTING_COMMON_JOBS, ...onlyFor.map(([job]) => job)]),
    backstory: prose(4),
    ...overrides,
  };
}

/** Answers to the built-in questions with their wording, as kept: those in `answered` as given, the rest made up. */
function answersTo(questions: readonly { key: string; label: string }[], answered: Record<string, string>) {
  return questions.map((q): WrittenAnswer => ({ key: q.key, question: q.label, answer: answered[q.key] ?? prose(2) }));
}

/** An application's answers to the built-in questions (a fresh site's), by key: `{ referralSource: "…" }`. */
export const applicationAnswers = (answered: Record<string, string> = {}) =>
  answersTo(APPLICATION_TEXT_QUESTIONS, answered);

/** A post-event letter's answers to the built-in questions (a fresh site's), by key: `{ goals: "…" }`. */
export const pelAnswers = (answered: Record<string, string> = {}) => answersTo(PEL_QUESTIONS, answered);

export function applicationValues(
  profile: { id: string; firstName: string; lastName: string; email: string },
  overrides: Partial<typeof applications.$inferInsert> = {},
): typeof applications.$inferInsert {
  return {
    userId: profile.id,
    firstName: profile.firstName,
    lastName: profile.lastName,
    email: profile.email,
    discordTag: `${profile.firstName.toLowerCase()}_${crypto.randomInt(1000, 9999)}`,
    rolePreference: crypto.randomInt(10) === 0 ? "cast" : "player",
    answers: applicationAnswers(),
    ...overrides,
  };
}

export function pelValues(
  userId: string,
  eventId: string,
  overrides: Partial<typeof pels.$inferInsert> = {},
): typeof pels.$inferInsert {
  return {
    submissionKey: crypto.randomUUID(),
    userId,
    eventId,
    characterName: `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`,
    answers: pelAnswers(),
    ...overrides,
  };
}

/** An order of one to four items; the total comes from the price list, as the server computes it. */
export function orderValues(
  userId: string,
  eventId: string,
  overrides: Partial<typeof merchantOrders.$inferInsert> = {},
): typeof merchantOrders.$inferInsert {
  const items: Record<string, number> = {};
  for (let i = 0, n = 1 + crypto.randomInt(4); i < n; i++)
    items[pick(BUILT_IN_MERCHANT_ITEMS).key] = 1 + crypto.randomInt(6);
  return {
    submissionKey: crypto.randomUUID(),
    userId,
    eventId,
    items,
    totalPrice: (builtInTotalCents(items) / 100).toFixed(2),
    ...overrides,
    pricedItems: overrides.pricedItems ?? builtInPricedItems(overrides.items ?? items),
  };
}

export function letterValues(
  userId: string,
  overrides: Partial<typeof letters.$inferInsert> = {},
): typeof letters.$inferInsert {
  return {
    submissionKey: crypto.randomUUID(),
    userId,
    recipient: `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`,
    body: `Dear friend,\n\n${prose(3)}\n\nYours in the dark,\n${pick(FIRST_NAMES)}`,
    ...overrides,
  };
}

/** A research row whose file (`fileKey`, `fileSize`) the caller stores. */
export function researchValues(
  userId: string,
  eventId: string,
  file: { key: string; name: string; type: string; size: number },
  overrides: Partial<typeof research.$inferInsert> = {},
): typeof research.$inferInsert {
  return {
    submissionKey: crypto.randomUUID(),
    userId,
    eventId,
    sources: `Notes taken at ${pick(PLACES)}; the assayer's ledger; ${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}'s testimony.`,
    research: prose(4),
    fileKey: file.key,
    fileName: file.name,
    fileType: file.type,
    fileSize: file.size,
    ...overrides,
  };
}

export function attendanceValues(
  userId: string,
  eventId: string,
  overrides: Partial<typeof eventAttendance.$inferInsert> = {},
): typeof eventAttendance.$inferInsert {
  return {
    userId,
    eventId,
    cabin: crypto.randomInt(8) === 0 ? null : pick(STARTING_CABINS),
    paymentStatus: "paid",
    characterName: null,
    ...overrides,
  };
}
