// Every row the site holds about one member, for their data export (collect.server.ts shapes it).
import { and, asc, eq, or } from "drizzle-orm";
import { type Database, type Transaction } from "~/platform/db/client.server";
import {
  accounts,
  applications,
  auditLog,
  characters,
  clubMessageRecipients,
  clubMessages,
  costumePhotos,
  costumeReminders,
  costumeReviews,
  eventAttendance,
  events,
  letters,
  merchantOrders,
  passkeys,
  pels,
  profiles,
  research,
  staffReplies,
  sessions,
  ticketPurchases,
  twoFactors,
} from "~/platform/db/schema";

/** The event an entry is about, as the download names it. */
const eventNamed = { title: events.title, date: events.date };

/** The member's rows from every table that holds any, or null when there is no such member. */
export async function memberRows(db: Database | Transaction, userId: string) {
  const [profile] = await db.select().from(profiles).where(eq(profiles.id, userId));
  if (!profile) return null;
  const [application] = await db.select().from(applications).where(eq(applications.userId, userId));
  const [character] = await db.select().from(characters).where(eq(characters.userId, userId));
  const [memberPels, orders, papers, sent, attendance, sessionRows, methods, factors, keys, audits] = await Promise.all(
    [
      db
        .select({ pel: pels, event: eventNamed })
        .from(pels)
        .innerJoin(events, eq(events.id, pels.eventId))
        .where(eq(pels.userId, userId))
        .orderBy(asc(pels.createdAt)),
      db
        .select({ order: merchantOrders, event: eventNamed })
        .from(merchantOrders)
        .innerJoin(events, eq(events.id, merchantOrders.eventId))
        .where(eq(merchantOrders.userId, userId))
        .orderBy(asc(merchantOrders.createdAt)),
      db
        .select({ paper: research, event: eventNamed })
        .from(research)
        .innerJoin(events, eq(events.id, research.eventId))
        .where(eq(research.userId, userId))
        .orderBy(asc(research.createdAt), asc(research.id)),
      db
        .select({
          id: letters.id,
          recipient: letters.recipient,
          signedAs: letters.senderName,
          asNpc: letters.fromNpc,
          status: letters.status,
          threadId: letters.threadId,
          body: letters.body,
          createdAt: letters.createdAt,
          deliveredAt: letters.deliveredAt,
        })
        .from(letters)
        .where(eq(letters.userId, userId))
        .orderBy(asc(letters.createdAt)),
      db
        .select({ attendance: eventAttendance, event: eventNamed })
        .from(eventAttendance)
        .innerJoin(events, eq(events.id, eventAttendance.eventId))
        .where(eq(eventAttendance.userId, userId))
        .orderBy(asc(events.date)),
      db
        .select({
          createdAt: sessions.createdAt,
          updatedAt: sessions.updatedAt,
          expiresAt: sessions.expiresAt,
          ipAddress: sessions.ipAddress,
          userAgent: sessions.userAgent,
          assuranceLevel: sessions.assuranceLevel,
        })
        .from(sessions)
        .where(eq(sessions.userId, userId))
        .orderBy(asc(sessions.createdAt)),
      db
        .select({ providerId: accounts.providerId, createdAt: accounts.createdAt, updatedAt: accounts.updatedAt })
        .from(accounts)
        .where(eq(accounts.userId, userId)),
      db.select({ verified: twoFactors.verified }).from(twoFactors).where(eq(twoFactors.userId, userId)),
      db
        .select({
          name: passkeys.name,
          deviceType: passkeys.deviceType,
          backedUp: passkeys.backedUp,
          createdAt: passkeys.createdAt,
        })
        .from(passkeys)
        .where(eq(passkeys.userId, userId)),
      db
        .select({ action: auditLog.action, createdAt: auditLog.createdAt, actorId: auditLog.actorId })
        .from(auditLog)
        .where(or(eq(auditLog.subjectId, userId), eq(auditLog.actorId, userId)))
        .orderBy(asc(auditLog.createdAt)),
    ],
  );
  const [photos, costumeVerdicts, reminders, answers, tickets] = await Promise.all([
    db
      .select({ photo: costumePhotos, event: eventNamed })
      .from(costumePhotos)
      .innerJoin(events, eq(events.id, costumePhotos.eventId))
      .where(eq(costumePhotos.userId, userId))
      .orderBy(asc(costumePhotos.createdAt), asc(costumePhotos.id)),
    db
      .select({
        verdict: costumeReviews.verdict,
        note: costumeReviews.note,
        reviewedAt: costumeReviews.reviewedAt,
        event: eventNamed,
      })
      .from(costumeReviews)
      .innerJoin(events, eq(events.id, costumeReviews.eventId))
      .where(eq(costumeReviews.userId, userId))
      .orderBy(asc(costumeReviews.reviewedAt)),
    db
      .select({ daysBefore: costumeReminders.daysBefore, sentAt: costumeReminders.sentAt, event: eventNamed })
      .from(costumeReminders)
      .innerJoin(events, eq(events.id, costumeReminders.eventId))
      .where(eq(costumeReminders.userId, userId))
      .orderBy(asc(costumeReminders.sentAt)),
    // Replies staff wrote to the member's entries; not who wrote them, as on the profile.
    db
      .select({
        about: staffReplies.kind,
        entryId: staffReplies.entryId,
        body: staffReplies.body,
        createdAt: staffReplies.createdAt,
      })
      .from(staffReplies)
      .where(eq(staffReplies.userId, userId))
      .orderBy(asc(staffReplies.createdAt), asc(staffReplies.id)),
    db
      .select({ purchase: ticketPurchases, event: eventNamed })
      .from(ticketPurchases)
      .innerJoin(events, eq(events.id, ticketPurchases.eventId))
      .where(eq(ticketPurchases.userId, userId))
      .orderBy(asc(ticketPurchases.createdAt)),
  ]);
  // Letters delivered to the member's letter box: how each was signed, never who wrote it; none still waiting for release.
  const received = await db
    .select({
      id: letters.id,
      from: letters.senderName,
      recipient: letters.recipient,
      threadId: letters.threadId,
      body: letters.body,
      deliveredAt: letters.deliveredAt,
      readAt: letters.readAt,
    })
    .from(letters)
    .where(and(eq(letters.recipientId, userId), eq(letters.status, "delivered")))
    .orderBy(asc(letters.deliveredAt), asc(letters.id));
  // The managers' messages to the member: each copy, emailed or left out by their choices, as the club wrote it.
  const notices = await db
    .select({
      subject: clubMessages.subject,
      body: clubMessages.body,
      group: clubMessages.audienceLabel,
      kind: clubMessages.choice,
      sentAt: clubMessages.createdAt,
      status: clubMessageRecipients.status,
      reason: clubMessageRecipients.reason,
      emailedAt: clubMessageRecipients.sentAt,
    })
    .from(clubMessageRecipients)
    .innerJoin(clubMessages, eq(clubMessages.id, clubMessageRecipients.messageId))
    .where(eq(clubMessageRecipients.userId, userId))
    .orderBy(asc(clubMessages.createdAt), asc(clubMessageRecipients.id));
  return {
    profile,
    notices,
    application,
    character,
    memberPels,
    orders,
    papers,
    sent,
    attendance,
    sessionRows,
    methods,
    factors,
    keys,
    audits,
    photos,
    costumeVerdicts,
    reminders,
    answers,
    tickets,
    received,
  };
}
