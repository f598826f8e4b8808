import crypto from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterEach } from "vitest";
import { deliverClubMessage } from "~/features/messages/deliver.server";
import { ComposeSchema } from "~/features/messages/messages.form";
import { config, overrideConfig } from "~/platform/config.server";
import type { Database } from "~/platform/db/client.server";
import { attendanceValues, createEvent, createProfile, profileValues } from "~/platform/db/factories";
import { clubMessageRecipients, eventAttendance, outbox, profiles } from "~/platform/db/schema";
import { deliverEmail } from "~/platform/mail/mailer.server";

/** The lanes a managers' message goes out by: its copies, and the site's other email beside them. */
export const deliverers = { email: deliverEmail, "club-message": deliverClubMessage };
/** Fast enough that pacing (MESSAGES_PER_MINUTE) does not slow the tests that are not about it. */
export const unpaced = { perMinute: 6000 };

type MemberValues = Parameters<typeof profileValues>[0];

/**
 * What the tests of managers' messages share, on the test file's database: the settings as the
 * file found them (put back after each test, with the outbox emptied), an event's group of
 * members, the compose form as read, a manager, and each member's copy and outbox row.
 */
export function clubMessageFixtures(db: () => Database) {
  const original = { mail: config().mail, messages: config().messages, outbox: config().outbox };
  afterEach(async () => {
    overrideConfig(original);
    // What one test leaves waiting must not reach the next test's servers.
    await db().delete(outbox);
  });

  /** An event and the members on its attendance list: the group "On the event's attendance list". */
  async function attendanceGroup(members: MemberValues[]) {
    const event = await createEvent(db());
    const rows =
      members.length === 0
        ? []
        : await db()
            .insert(profiles)
            .values(members.map((member) => profileValues({ role: "player", ...member })))
            .returning();
    if (rows.length > 0)
      await db()
        .insert(eventAttendance)
        .values(rows.map((row) => attendanceValues(row.id, event.id)));
    return { event, members: rows };
  }

  let manager: { id: string } | undefined;
  async function aManager() {
    manager ??= await createProfile(db(), { role: "manager" });
    return manager;
  }

  /** Each member's copy of a message, by the member's email. */
  async function copiesOf(messageId: string) {
    const rows = await db()
      .select({
        id: clubMessageRecipients.id,
        email: profiles.email,
        status: clubMessageRecipients.status,
        reason: clubMessageRecipients.reason,
        sentAt: clubMessageRecipients.sentAt,
      })
      .from(clubMessageRecipients)
      .innerJoin(profiles, eq(profiles.id, clubMessageRecipients.userId))
      .where(eq(clubMessageRecipients.messageId, messageId))
      .orderBy(asc(profiles.email));
    return new Map(rows.map((row) => [row.email, row]));
  }

  async function outboxRowsOf(copyIds: string[]) {
    if (copyIds.length === 0) return [];
    return db()
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "club-message"), inArray(sql<string>`${outbox.payload}->>'recipientId'`, copyIds)));
  }

  return { original, attendanceGroup, aManager, copiesOf, outboxRowsOf };
}

/** The compose form as a manager fills it in, read by its schema, with a key of its own. */
export function composed(eventId: string, fields: { subject?: string; body?: string; mustReach?: "on" } = {}) {
  const form = ComposeSchema.parse({
    subject: fields.subject ?? "Muster at {first name}'s cabin",
    body: fields.body ?? "Dear {first name},\n\nBring a **lantern** and your [letter](https://example.org/letter).",
    audience: "attendance",
    eventId,
    mustReach: fields.mustReach,
  });
  return { ...form, submissionKey: crypto.randomUUID() };
}
