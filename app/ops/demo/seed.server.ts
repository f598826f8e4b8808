import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Role } from "~/game/roles";
import { countOf } from "~/lib/plural";
import type { Database } from "~/platform/db/client.server";
import { seedClubFacts } from "./seed-club.server";
import {
  applicationValues,
  attendanceValues,
  characterValues,
  eventValues,
  letterValues,
  orderValues,
  pelValues,
  pick,
  profileValues,
  recentDate,
  researchValues,
} from "~/platform/db/factories";
import {
  accounts,
  applications,
  characters,
  eventAttendance,
  events,
  letters,
  merchantOrders,
  pels,
  profiles,
  research,
} from "~/platform/db/schema";
import { hashPassword } from "~/identity/passwords.server";
import { researchKey, saveFile } from "~/platform/storage/storage.server";
import { DEMO_BUSIEST, seedBusiest, type DemoBusiest } from "./seed-busiest.server";
import { insertInBatches, sample, TINY_PNG } from "./seed-tools.server";

// The command-line tool and the benchmark take the demo's sizes from here.
export { DEMO_BUSIEST, type DemoBusiest };

export type DemoSize = {
  members: number;
  events: number;
  pels: number;
  orders: number;
  letters: number;
  research: number;
};

/** Enough to try every page. */
export const DEMO_SMALL: DemoSize = { members: 60, events: 6, pels: 150, orders: 80, letters: 40, research: 12 };
/** The benchmark's data set: a club several years old. */
export const DEMO_LARGE: DemoSize = {
  members: 2_000,
  events: 50,
  pels: 20_000,
  orders: 10_000,
  letters: 5_000,
  research: 500,
};

/** Every demo account signs in with this password; the named ones below are the ones to try. */
export const DEMO_PASSWORD = "Hopewell#1877";
export const DEMO_ACCOUNTS: Record<Role, string> = {
  manager: "manager@hopewell.test",
  cast: "cast@hopewell.test",
  player: "player@hopewell.test",
  applicant: "applicant@hopewell.test",
};

const DAY = 86_400_000;

/** The role of the i-th generated member: about 2% managers, 8% cast, 70% players, 20% applicants. */
function roleFor(i: number): Role {
  const slot = i % 50;
  if (slot === 0) return "manager";
  if (slot <= 4) return "cast";
  if (slot <= 39) return "player";
  return "applicant";
}

const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);

export async function demoIsSeeded(db: Database): Promise<boolean> {
  const [row] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.email, DEMO_ACCOUNTS.manager));
  return row !== undefined;
}

/**
 * Fills the database with a club's worth of realistic members and submissions,
 * made by the same factories as the tests. Returns what it made.
 */
export async function seedDemo(
  db: Database,
  size: DemoSize,
  log: (message: string) => void = () => {},
  busiest?: DemoBusiest,
) {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const now = Date.now();

  // Members: the four named accounts first, then the rest.
  const named = (Object.entries(DEMO_ACCOUNTS) as [Role, string][]).map(([role, email], i) =>
    profileValues({
      role,
      email,
      firstName: ["Ada", "Bartholomew", "Clara", "Dale"][i],
      lastName: "Demo",
      emailVerified: true,
    }),
  );
  // Made by the operator, as with npm run admin: their addresses count as confirmed, so an emailed code keeps the demo password.
  const memberRows = [
    ...named,
    ...Array.from({ length: Math.max(0, size.members - named.length) }, (_, i) =>
      profileValues({ role: roleFor(i), emailVerified: true }),
    ),
  ];
  const members = memberRows.map((m) => ({
    id: m.id!,
    firstName: m.firstName,
    lastName: m.lastName,
    email: m.email,
    role: m.role as Role,
  }));
  await insertInBatches(memberRows, (batch) => db.insert(profiles).values(batch));
  await insertInBatches(members, (batch) =>
    db.insert(accounts).values(
      batch.map((m) => ({
        id: crypto.randomUUID(),
        userId: m.id,
        accountId: m.id,
        providerId: "credential",
        password: passwordHash,
      })),
    ),
  );
  log(countOf(members.length, "member"));

  const managers = members.filter((m) => m.role === "manager");
  const decidedBy = managers[0]?.id ?? null;
  const applicationRows = members
    .filter((m) => m.role !== "manager")
    .map((m) => {
      const accepted = m.role !== "applicant";
      const status = accepted ? "accepted" : crypto.randomInt(5) === 0 ? "rejected" : "pending";
      const createdAt = recentDate(3 * 365);
      return applicationValues(m, {
        status,
        rolePreference: m.role === "cast" ? "cast" : "player",
        createdAt,
        ...(status === "pending" ? {} : { decidedAt: new Date(createdAt.getTime() + 3 * DAY), decidedBy }),
      });
    });
  await insertInBatches(applicationRows, (batch) => db.insert(applications).values(batch));

  // Nine in ten accepted members have built a character.
  const withCharacters = members.filter(
    (m) => m.role !== "applicant" && (m.email.endsWith(".test") || crypto.randomInt(10) > 0),
  );
  const characterRows = withCharacters.map((m) => characterValues(m.id));
  const characterName = new Map(characterRows.map((c) => [c.userId, c.characterName]));
  await insertInBatches(characterRows, (batch) => db.insert(characters).values(batch));
  log(`${countOf(applicationRows.length, "application")}, ${countOf(characterRows.length, "character")}`);

  // Events: about a month apart, most in the past, a few ahead with ticket links.
  const future = Math.max(1, Math.round(size.events / 5));
  const eventRows = Array.from({ length: size.events }, (_, i) => {
    const offset = i < future ? (future - i) * 30 : -(i - future + 1) * 30;
    const date = isoDate(now + offset * DAY);
    return eventValues({
      date,
      status: offset > 0 ? "future" : "past",
      ticketUrl: offset > 0 ? `https://tickets.example.com/hopewell/${date}` : null,
    });
  });
  const inserted = await db
    .insert(events)
    .values(eventRows)
    .returning({ id: events.id, date: events.date, status: events.status });
  const past = inserted.filter((e) => e.status === "past");
  const eventsForSubmissions = past.length > 0 ? past : inserted;
  log(countOf(inserted.length, "event"));

  // Attendance: up to 150 characters at each past event.
  const attendees = new Map<string, string[]>();
  const attendanceRows = past.flatMap((event) => {
    const who = sample(withCharacters, Math.min(150, withCharacters.length)).map((m) => m.id);
    attendees.set(event.id, who);
    return who.map((userId) =>
      attendanceValues(userId, event.id, {
        characterName: characterName.get(userId) ?? null,
        createdBy: decidedBy,
        createdAt: new Date(Date.parse(event.date) - DAY),
      }),
    );
  });
  await insertInBatches(attendanceRows, (batch) => db.insert(eventAttendance).values(batch));
  log(countOf(attendanceRows.length, "attendance record"));

  const writers = withCharacters.length > 0 ? withCharacters.map((m) => m.id) : members.map((m) => m.id);
  const afterEvent = (eventDate: string) =>
    new Date(Math.min(now, Date.parse(eventDate) + crypto.randomInt(1, 14 * 24) * 3_600_000));
  const beforeEvent = (eventDate: string) =>
    new Date(Math.min(now, Date.parse(eventDate) - crypto.randomInt(1, 21 * 24) * 3_600_000));
  const authorAt = (eventId: string) => pick(attendees.get(eventId) ?? writers);

  const pelRows = Array.from({ length: size.pels }, () => {
    const event = pick(eventsForSubmissions);
    const userId = authorAt(event.id);
    return pelValues(userId, event.id, {
      characterName: characterName.get(userId) ?? "No character",
      createdAt: afterEvent(event.date),
    });
  });
  await insertInBatches(pelRows, (batch) => db.insert(pels).values(batch));
  log(countOf(pelRows.length, "post-event letter"));

  const orderRows = Array.from({ length: size.orders }, () => {
    const event = pick(inserted);
    return orderValues(pick(writers), event.id, { createdAt: beforeEvent(event.date) });
  });
  await insertInBatches(orderRows, (batch) => db.insert(merchantOrders).values(batch));
  log(countOf(orderRows.length, "merchant order"));

  const demoPlayer = members.find((m) => m.email === DEMO_ACCOUNTS.player)?.id;
  const demoManager = members.find((m) => m.email === DEMO_ACCOUNTS.manager)!.id;
  await seedClubFacts(db, demoManager);
  log("the FAQ and the price list changed once each by the demo manager");
  if (busiest) {
    const made = { inserted, past, withCharacters, characterName, decidedBy, afterEvent, demoPlayer };
    await seedBusiest(db, busiest, made, log);
  }

  // Letters: half to players' characters (delivered, most read, a few held for release; the demo
  // player's letter box gets the first), a quarter to NPCs (answered or waiting for staff), and a
  // quarter filed from before letters were delivered.
  const characterList = characterRows.map((c) => ({ userId: c.userId, name: c.characterName }));
  const letterRows = Array.from({ length: size.letters }, (_, i) => {
    const userId = pick(writers);
    const createdAt = recentDate(3 * 365);
    const signed = { senderName: characterName.get(userId) ?? null, createdAt };
    const kind = i % 4;
    if ((kind === 0 || kind === 1) && characterList.length > 0) {
      const to = (i < 24 && characterList.find((c) => c.userId === demoPlayer)) || pick(characterList);
      if (i % 20 === 1)
        return letterValues(userId, { ...signed, recipient: to.name, recipientId: to.userId, status: "held" });
      const deliveredAt = new Date(Math.min(now, createdAt.getTime() + DAY));
      return letterValues(userId, {
        ...signed,
        recipient: to.name,
        recipientId: to.userId,
        status: "delivered",
        deliveredAt,
        readAt: i % 3 === 0 ? null : deliveredAt,
      });
    }
    if (kind === 2) return letterValues(userId, { ...signed, status: i % 8 === 2 ? "to_staff" : "answered" });
    return letterValues(userId, { createdAt });
  });
  await insertInBatches(letterRows, (batch) => db.insert(letters).values(batch));
  log(countOf(letterRows.length, "letter"));

  const researchRows = [];
  for (let i = 0; i < size.research; i++) {
    const event = pick(eventsForSubmissions);
    const userId = authorAt(event.id);
    const key = researchKey(userId, "png");
    await saveFile(key, TINY_PNG);
    researchRows.push(
      researchValues(
        userId,
        event.id,
        { key, name: `field-notes-${i + 1}.png`, type: "image/png", size: TINY_PNG.length },
        { createdAt: afterEvent(event.date) },
      ),
    );
  }
  await insertInBatches(researchRows, (batch) => db.insert(research).values(batch));
  log(`${countOf(researchRows.length, "research paper")} with files`);

  // Fresh statistics and visibility maps, as autovacuum (or the embedded database's
  // maintenance) would leave them, so the planner sees the tables as they now are.
  await db.execute(sql`vacuum analyze`);
  return {
    members: members.length,
    events: inserted.length,
    pels: pelRows.length,
    orders: orderRows.length,
    letters: letterRows.length,
    research: researchRows.length,
  };
}
