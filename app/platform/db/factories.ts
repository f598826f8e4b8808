import crypto from "node:crypto";
import { APPLICATION_TEXT_QUESTIONS } from "~/game/application";
import { STARTING_CABINS } from "~/game/cabins";
import { STARTING_COMMON_JOBS, STARTING_FACTION_ONLY_JOBS, STARTING_FACTIONS } from "~/game/factions";
import { builtInPricedItems, MERCHANT_ITEMS, orderTotalCents } from "~/game/merchant";
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
} from "./schema";

/**
 * Builders of realistic rows, shared by the tests and the demo data (`npm run seed:demo`).
 * The `*Values` builders return rows to insert (so the demo can insert thousands at once);
 * `create*` insert one and return it. Each takes overrides for the fields a caller cares about.
 */
const FIRST_NAMES = [
  "Abigail",
  "Amos",
  "Clara",
  "Ezra",
  "Hattie",
  "Jeb",
  "Lottie",
  "Silas",
  "Nell",
  "Wyatt",
  "Josiah",
  "Mercy",
  "Obadiah",
  "Prudence",
  "Eli",
  "Temperance",
  "Caleb",
  "Winifred",
  "Boone",
  "Cora",
];
const LAST_NAMES = [
  "Bright",
  "Calloway",
  "Dunmore",
  "Fairweather",
  "Holt",
  "Marsh",
  "Pickett",
  "Quill",
  "Tanner",
  "Voss",
  "Ashby",
  "Blackwood",
  "Crane",
  "Delacroix",
  "Everett",
  "Greaves",
  "Hollis",
  "Kettering",
  "Lowry",
  "Mercer",
];
const NICKNAMES = ["One-Eye", "Lucky", "Doc", "Whistlin'", "Iron", "Dusty", "Preacher", "Red", "Silver", "Quiet"];
const EVENT_TITLES = [
  "The Long Dark",
  "Silver Fever",
  "Blood Moon",
  "First Frost",
  "The Deep Seam",
  "Hollow Creek",
  "The Lantern Wake",
  "Black Powder",
  "Ghost Shift",
  "The Thaw",
];
const PLACES = [
  "the assay office",
  "the Deep Seam",
  "the chapel",
  "the company store",
  "Taber Creek",
  "the saloon",
  "the north shaft",
  "the survey camp",
  "the old mill",
  "the graveyard",
];
const HAPPENINGS = [
  "the lanterns all went out at once",
  "something knocked back from inside the shaft",
  "the preacher's sermon turned into a confession",
  "we traded three bolts of fabric for a map nobody could read",
  "the survey corps fired on shadows until dawn",
  "a stranger bought every vial in town",
  "the well water came up warm and red",
  "my character finally forged a working cylinder",
  "the homesteaders held the barn against the fog",
  "a letter arrived addressed to a man who died in '76",
];
const FEELINGS = [
  "It was terrifying in the best way.",
  "I have not been that scared in years.",
  "The crafting kept me busy all weekend.",
  "Every scene felt alive.",
  "I want more of this next time.",
  "The cast outdid themselves.",
];

/** One element of the list, at random. */
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

export function applicationValues(
  profile: { id: string; firstName: string; lastName: string; email: string },
  overrides: Partial<typeof applications.$inferInsert> = {},
): typeof applications.$inferInsert {
  const answers = Object.fromEntries(APPLICATION_TEXT_QUESTIONS.map((q) => [q.key, prose(2)]));
  return {
    userId: profile.id,
    firstName: profile.firstName,
    lastName: profile.lastName,
    email: profile.email,
    discordTag: `${profile.firstName.toLowerCase()}_${crypto.randomInt(1000, 9999)}`,
    rolePreference: crypto.randomInt(10) === 0 ? "cast" : "player",
    ...(answers as Record<(typeof APPLICATION_TEXT_QUESTIONS)[number]["key"], string>),
    ...overrides,
  };
}

export function pelValues(
  userId: string,
  eventId: string,
  overrides: Partial<typeof pels.$inferInsert> = {},
): typeof pels.$inferInsert {
  const answers = Object.fromEntries(PEL_QUESTIONS.map((q) => [q.key, prose(2)]));
  return {
    submissionKey: crypto.randomUUID(),
    userId,
    eventId,
    characterName: `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`,
    ...(answers as Record<(typeof PEL_QUESTIONS)[number]["key"], string>),
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
  for (let i = 0, n = 1 + crypto.randomInt(4); i < n; i++) items[pick(MERCHANT_ITEMS).key] = 1 + crypto.randomInt(6);
  return {
    submissionKey: crypto.randomUUID(),
    userId,
    eventId,
    items,
    totalPrice: (orderTotalCents(items) / 100).toFixed(2),
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
