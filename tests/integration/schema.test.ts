import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rawRows } from "~/platform/db/client.server";
import { createEvent, createProfile } from "~/platform/db/factories";
import { applications, characters, eventAttendance, events, profiles } from "~/platform/db/schema";
import { testDatabaseKind, withTestDatabase } from "../helpers/db";

const db = withTestDatabase();

/** Resolves to the database's error for a statement that must be refused. */
async function refusal(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return `${(error as Error).message} ${cause?.message ?? ""}`;
  }
  throw new Error("the database accepted a row it should refuse");
}

const answers = {
  discordTag: "settler#1877",
  rolePreference: "player" as const,
  answers: [{ key: "larpExperience", question: "What larp experience do you have?", answer: "x" }],
};

describe(`database schema (${testDatabaseKind})`, () => {
  it("creates every table the site needs", async () => {
    const rows = await rawRows<{ table_name: string }>(
      db(),
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const names = rows.map((row) => row.table_name);
    for (const table of [
      "profiles",
      "applications",
      "characters",
      "events",
      "pels",
      "merchant_orders",
      "event_attendance",
      "research",
      "letters",
    ]) {
      expect(names).toContain(table);
    }
  });

  it("makes new profiles applicants and refuses unknown roles and duplicate emails", async () => {
    const profile = await createProfile(db(), { email: "Amos@Example.com" });
    expect(profile.role).toBe("applicant");
    expect(await refusal(createProfile(db(), { role: "admin" as never }))).toMatch(/profiles_role_check/);
    expect(await refusal(createProfile(db(), { email: "amos@example.COM" }))).toMatch(/profiles_email_unique/);
  });

  it("allows one application per member and only the known statuses", async () => {
    const member = await createProfile(db());
    const application = {
      userId: member.id,
      firstName: member.firstName,
      lastName: member.lastName,
      email: member.email,
      ...answers,
    };
    await db().insert(applications).values(application);
    expect(await refusal(db().insert(applications).values(application))).toMatch(/applications_user_id_unique/);
    expect(
      await refusal(
        db()
          .update(applications)
          .set({ status: "maybe" as never })
          .where(eq(applications.userId, member.id)),
      ),
    ).toMatch(/applications_status_check/);
  });

  it("allows one character per member, with the faction and job names the club's list had", async () => {
    const member = await createProfile(db(), { role: "player" });
    // Which jobs a faction may take is the club's to change (features/club-facts): checked when saved.
    const soldier = {
      userId: member.id,
      characterName: "Jeb Holt",
      backstory: "x",
      faction: "Homesteader",
      job: "Soldier",
    };
    await db().insert(characters).values(soldier);
    expect(await refusal(db().insert(characters).values(soldier))).toMatch(/characters_user_id_unique/);
  });

  it("registers a member once per event, keeping the cabin's name as it was", async () => {
    const member = await createProfile(db(), { role: "player" });
    const event = await createEvent(db());
    await db().insert(eventAttendance).values({ userId: member.id, eventId: event.id, cabin: null });
    expect(
      await refusal(db().insert(eventAttendance).values({ userId: member.id, eventId: event.id, cabin: "Arctic Fox" })),
    ).toMatch(/event_attendance_user_event_unique/);
    const other = await createProfile(db(), { role: "player" });
    // A cabin since renamed or retired stays on the events that used it.
    const [row] = await db()
      .insert(eventAttendance)
      .values({ userId: other.id, eventId: event.id, cabin: "The Old Mill" })
      .returning();
    expect(row).toMatchObject({ cabin: "The Old Mill", paymentStatus: "paid" });
  });

  it("keeps ticket links to https and statuses to future, past or cancelled", async () => {
    expect(await refusal(createEvent(db(), { ticketUrl: "javascript:alert(1)" }))).toMatch(
      /events_ticket_url_https_check/,
    );
    expect(await refusal(createEvent(db(), { status: "someday" as never }))).toMatch(/events_status_check/);
    const event = await createEvent(db(), { ticketUrl: "https://buy.stripe.com/test_123" });
    expect(event.ticketUrl).toBe("https://buy.stripe.com/test_123");
  });

  it("deletes a member's own rows with the member", async () => {
    const member = await createProfile(db(), { role: "player" });
    const event = await createEvent(db());
    await db().insert(eventAttendance).values({ userId: member.id, eventId: event.id });
    await db().delete(profiles).where(eq(profiles.id, member.id));
    const left = await db().select().from(eventAttendance).where(eq(eventAttendance.userId, member.id));
    expect(left).toEqual([]);
    expect(await db().select().from(events).where(eq(events.id, event.id))).toHaveLength(1);
  });
});
