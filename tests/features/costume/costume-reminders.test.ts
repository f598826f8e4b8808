import crypto from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { daysBefore } from "~/game/costume";
import type { Role } from "~/game/roles";
import { config, overrideConfig } from "~/platform/config.server";
import { costumeRemindersJob, sendCostumeReminders } from "~/features/costume/costume-reminders.server";
import { startTimerJob } from "~/platform/jobs.server";
import { attendanceValues, createEvent, createProfile } from "~/platform/db/factories";
import { costumePhotos, costumeReminders, costumeReviews, eventAttendance, outbox } from "~/platform/db/schema";
import { deliverEmail } from "~/platform/mail/mailer.server";
import { deliverDueMessages } from "~/platform/outbox/outbox-worker.server";
import { withTestDatabase } from "../../helpers/db";
import { recipients, startSmtpServer } from "../../helpers/smtp";

/**
 * The costume reminders, 21 and 15 days before an event, with a controllable clock: which
 * members get one, that each goes once (the unique key, not memory), and that they reach a real
 * SMTP server through the outbox.
 */
const db = withTestDatabase();
const original = { mail: config().mail };
afterEach(() => overrideConfig(original));

/** Noon in Connecticut, `days` days before `date`. */
const dayBefore = (date: string, days: number) => new Date(`${daysBefore(date, days)}T16:00:00Z`);

async function member(role: Role, tag: string, options: { banned?: boolean } = {}) {
  return createProfile(db(), {
    role,
    firstName: tag,
    lastName: "Tester",
    email: `${tag.toLowerCase()}-${crypto.randomBytes(3).toString("hex")}@example.com`,
    banned: options.banned ?? false,
  });
}

async function register(userId: string, eventId: string) {
  await db().insert(eventAttendance).values(attendanceValues(userId, eventId));
}

async function photo(userId: string, eventId: string, createdAt: Date) {
  const key = `costumes/${userId}/${crypto.randomBytes(16).toString("hex")}`;
  const [row] = await db()
    .insert(costumePhotos)
    .values({
      userId,
      eventId,
      fileKey: `${key}.jpg`,
      thumbKey: `${key}-thumb.jpg`,
      fileType: "image/jpeg",
      fileSize: 1000,
      width: 100,
      height: 100,
      createdAt,
    })
    .returning();
  return row!;
}

/** The reminder emails queued for `emails`, as "address subject" lines, sorted. */
async function remindersTo(emails: string[]) {
  const rows = await db()
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(
      inArray(
        outbox.orderKey,
        emails.map((e) => `email:${e}`),
      ),
    );
  return rows.map((r) => `${String(r.payload.to)} ${String(r.payload.subject)}`).sort();
}

describe("costume reminders", () => {
  it("go at 21 and 15 days before, once each, to accepted members registered without an approved photo", async () => {
    const date = "2031-06-20";
    const event = await createEvent(db(), { title: "Blood Moon", date, status: "future" });
    const other = await createEvent(db(), { title: "The Thaw", date: "2031-09-12", status: "future" });
    const none = await member("player", "Nophoto");
    const waiting = await member("player", "Waiting");
    const approved = await member("player", "Approved");
    const changes = await member("cast", "Changes");
    const applicant = await member("applicant", "Applicant");
    const suspended = await member("player", "Suspended", { banned: true });
    const elsewhere = await member("player", "Elsewhere");
    for (const m of [none, waiting, approved, changes, applicant, suspended]) await register(m.id, event.id);
    await register(elsewhere.id, other.id);
    const early = dayBefore(date, 30);
    await photo(waiting.id, event.id, early);
    await photo(approved.id, event.id, early);
    await photo(changes.id, event.id, early);
    await db()
      .insert(costumeReviews)
      .values([
        { userId: approved.id, eventId: event.id, verdict: "approved", reviewedAt: dayBefore(date, 29) },
        {
          userId: changes.id,
          eventId: event.id,
          verdict: "changes_requested",
          note: "Lose the sneakers.",
          reviewedAt: dayBefore(date, 29),
        },
      ]);
    const everyone = [none, waiting, approved, changes, applicant, suspended, elsewhere].map((m) => m.email);

    // 22 days before: nothing yet.
    expect(await sendCostumeReminders(dayBefore(date, 22))).toBe(0);
    // 21 days before: the three without an approved photo, whatever their photos' state.
    expect(await sendCostumeReminders(dayBefore(date, 21))).toBe(3);
    expect(await remindersTo(everyone)).toEqual(
      [none, waiting, changes].map((m) => `${m.email} Your costume photo for Blood Moon is due in 7 days`).sort(),
    );
    // The same day again, the days after, and a restart (nothing kept in memory): nothing more.
    for (const days of [21, 20, 17, 16])
      expect(await sendCostumeReminders(dayBefore(date, days)), `${days} days before`).toBe(0);

    // The one who was asked for changes sends a new photo, which staff approve: no second reminder.
    await photo(changes.id, event.id, dayBefore(date, 18));
    await db()
      .update(costumeReviews)
      .set({ verdict: "approved", reviewedAt: dayBefore(date, 17) })
      .where(eq(costumeReviews.userId, changes.id));
    // A photo after the approval puts it back for review: a reminder again.
    await photo(approved.id, event.id, dayBefore(date, 16));
    // Registered late.
    const late = await member("player", "Late");
    await register(late.id, event.id);

    expect(await sendCostumeReminders(dayBefore(date, 15))).toBe(4);
    expect(await sendCostumeReminders(dayBefore(date, 15))).toBe(0);
    expect(await sendCostumeReminders(dayBefore(date, 3))).toBe(0);
    const fifteen = (m: { email: string }) => `${m.email} Your costume photo for Blood Moon is due tomorrow`;
    expect(await remindersTo([...everyone, late.email])).toEqual(
      [
        ...[none, waiting, changes].map((m) => `${m.email} Your costume photo for Blood Moon is due in 7 days`),
        ...[none, waiting, approved, late].map(fifteen),
      ].sort(),
    );
    // The late member got only the reminder due when they were registered, not the earlier one too.
    const rows = await db().select().from(costumeReminders).where(eq(costumeReminders.eventId, event.id));
    expect(rows.filter((r) => r.userId === late.id).map((r) => r.daysBefore)).toEqual([15]);
    expect(
      rows
        .filter((r) => r.userId === none.id)
        .map((r) => r.daysBefore)
        .sort(),
    ).toEqual([15, 21]);

    // After the event, nothing.
    expect(await sendCostumeReminders(dayBefore(date, -1))).toBe(0);
  });

  it("says what each member has to do, and reaches them through the outbox", async () => {
    const date = "2031-08-01";
    const event = await createEvent(db(), { title: "First Frost", date, status: "future" });
    const cancelled = await createEvent(db(), { title: "Called Off", date, status: "cancelled" });
    const none = await member("player", "Nobody");
    const asked = await member("player", "Asked");
    for (const e of [event, cancelled]) await register(none.id, e.id);
    await register(asked.id, event.id);
    await photo(asked.id, event.id, dayBefore(date, 40));
    await db()
      .insert(costumeReviews)
      .values({
        userId: asked.id,
        eventId: event.id,
        verdict: "changes_requested",
        note: "A hat, please.",
        reviewedAt: dayBefore(date, 39),
      });

    const smtp = await startSmtpServer(0);
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url } });
    try {
      expect(await sendCostumeReminders(dayBefore(date, 21))).toBe(2);
      await deliverDueMessages({ email: deliverEmail });
      // (The first test's reminders go out in this round too.)
      const ours = smtp.messages.filter((m) => [asked.email, none.email].includes(recipients(m)));
      expect(ours.map(recipients).sort()).toEqual([asked.email, none.email].sort());
      const toNone = smtp.messages.find((m) => recipients(m) === none.email)!;
      const toAsked = smtp.messages.find((m) => recipients(m) === asked.email)!;
      expect(toNone.subject).toBe("Your costume photo for First Frost is due in 7 days");
      expect(toNone.text).toContain("Howdy Nobody,");
      expect(toNone.text).toContain("yours is due on Friday, July 18, 2031 (due in 7 days)");
      expect(toNone.text).toContain("We have no costume photo from you yet.");
      expect(toNone.text).toMatch(/Costume photos: http:\/\/\S+\/costume\n/);
      expect(toAsked.text).toContain("Staff asked for changes to your costume.");
      // Never a word about the cancelled event.
      expect(smtp.messages.some((m) => m.subject?.includes("Called Off"))).toBe(false);
    } finally {
      await smtp.close();
    }
  });

  it("are sent by the server's scheduled job, on the clock it is given, and never twice across instances", async () => {
    const date = "2031-10-31";
    const event = await createEvent(db(), { title: "The Lantern Wake", date, status: "future" });
    const players = await Promise.all(["Ada", "Bo", "Cy"].map((name) => member("player", name)));
    for (const p of players) await register(p.id, event.id);
    const clock = () => dayBefore(date, 15);
    // Two instances, each with its own job, running at the same moment.
    const jobs = [
      startTimerJob(costumeRemindersJob({ firstRunMs: 0, clock })),
      startTimerJob(costumeRemindersJob({ firstRunMs: 0, clock })),
    ];
    await new Promise((resolve) => setTimeout(resolve, 50));
    await Promise.all(jobs.map((job) => job.settled()));
    await Promise.all(jobs.map((job) => job.stop()));
    const sent = await db()
      .select({ userId: costumeReminders.userId, days: costumeReminders.daysBefore })
      .from(costumeReminders)
      .where(eq(costumeReminders.eventId, event.id));
    expect(sent.map((r) => r.days)).toEqual([15, 15, 15]);
    const mails = await remindersTo(players.map((p) => p.email));
    expect(mails).toHaveLength(3);
    // The database refuses a second row for the same member, event and reminder.
    await expect(
      db().insert(costumeReminders).values({ userId: players[0]!.id, eventId: event.id, daysBefore: 15 }),
    ).rejects.toThrow();
    await expect(
      db().insert(costumeReminders).values({ userId: players[0]!.id, eventId: event.id, daysBefore: 7 }),
    ).rejects.toThrow();
  });
});
