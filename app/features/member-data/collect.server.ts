import { and, asc, eq, or } from "drizzle-orm";
import { type Database, type Transaction } from "~/platform/db/client.server";
import {
  accounts,
  applications,
  auditLog,
  characters,
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

/**
 * What "Take it out" gives a member (member-data.server.ts builds the ZIP): every row the site
 * holds about them, as data.json, and the stored files to put beside it.
 */

const iso = (value: Date | string | null | undefined) => (value == null ? null : new Date(value).toISOString());

/** A file name safe inside a ZIP on every system: the member's own name, without paths. */
function zipName(index: number, fileName: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this replaces
  const base = fileName.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, "_").slice(-120) || "file";
  return `files/${String(index + 1).padStart(3, "0")}-${base}`;
}

/** The event an entry is about, as the download names it. */
const eventNamed = { title: events.title, date: events.date };

/** Everything about the member, as written to data.json: no secret, token, hash or key ever. */
export async function collectMemberData(db: Database | Transaction, userId: string) {
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
  const eventOf = { title: events.title, date: events.date };
  const [photos, costumeVerdicts, reminders, answers, tickets] = await Promise.all([
    db
      .select({ photo: costumePhotos, event: eventOf })
      .from(costumePhotos)
      .innerJoin(events, eq(events.id, costumePhotos.eventId))
      .where(eq(costumePhotos.userId, userId))
      .orderBy(asc(costumePhotos.createdAt), asc(costumePhotos.id)),
    db
      .select({
        verdict: costumeReviews.verdict,
        note: costumeReviews.note,
        reviewedAt: costumeReviews.reviewedAt,
        event: eventOf,
      })
      .from(costumeReviews)
      .innerJoin(events, eq(events.id, costumeReviews.eventId))
      .where(eq(costumeReviews.userId, userId))
      .orderBy(asc(costumeReviews.reviewedAt)),
    db
      .select({ daysBefore: costumeReminders.daysBefore, sentAt: costumeReminders.sentAt, event: eventOf })
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
      .select({ purchase: ticketPurchases, event: eventOf })
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

  const files = papers.map(({ paper }, index) => ({ key: paper.fileKey, name: zipName(index, paper.fileName) }));
  const photoFiles = photos.map(({ photo, event }, index) => ({
    key: photo.fileKey,
    name: zipName(
      papers.length + index,
      `costume ${event.date} ${index + 1}.${photo.fileType === "image/png" ? "png" : "jpg"}`,
    ),
  }));
  const json = {
    format: "Hopewell member data, version 1",
    exportedAt: new Date().toISOString(),
    profile: {
      id: profile.id,
      firstName: profile.firstName,
      lastName: profile.lastName,
      email: profile.email,
      emailVerified: profile.emailVerified,
      role: profile.role,
      twoFactorPhone: profile.twoFactorPhone,
      createdAt: iso(profile.createdAt),
      updatedAt: iso(profile.updatedAt),
    },
    emergencyContact: profile.emergencyContact ?? null,
    application: application
      ? (() => {
          const { userId: _owner, decidedBy: _decidedBy, ...rest } = application;
          return { ...rest, createdAt: iso(rest.createdAt), decidedAt: iso(rest.decidedAt) };
        })()
      : null,
    character: character
      ? {
          characterName: character.characterName,
          backstory: character.backstory,
          faction: character.faction,
          job: character.job,
          createdAt: iso(character.createdAt),
          updatedAt: iso(character.updatedAt),
        }
      : null,
    postEventLetters: memberPels.map(({ pel, event }) => {
      const { userId: _owner, submissionKey: _key, eventId: _event, ...rest } = pel;
      return { event, ...rest, createdAt: iso(rest.createdAt) };
    }),
    merchantOrders: orders.map(({ order, event }) => ({
      id: order.id,
      event,
      items: order.items,
      totalPrice: order.totalPrice,
      createdAt: iso(order.createdAt),
    })),
    researchPapers: papers.map(({ paper, event }, index) => ({
      id: paper.id,
      event,
      sources: paper.sources,
      research: paper.research,
      fileName: paper.fileName,
      fileType: paper.fileType,
      fileSize: paper.fileSize,
      fileInThisZip: files[index]!.name,
      createdAt: iso(paper.createdAt),
    })),
    costumePhotos: photos.map(({ photo, event }, index) => ({
      id: photo.id,
      event,
      fileType: photo.fileType,
      fileSize: photo.fileSize,
      width: photo.width,
      height: photo.height,
      fileInThisZip: photoFiles[index]!.name,
      createdAt: iso(photo.createdAt),
    })),
    costumeVerdicts: costumeVerdicts.map((v) => ({
      event: v.event,
      verdict: v.verdict,
      note: v.note,
      reviewedAt: iso(v.reviewedAt),
    })),
    costumeReminders: reminders.map((r) => ({ event: r.event, daysBefore: r.daysBefore, sentAt: iso(r.sentAt) })),
    answersFromStaff: answers.map((a) => ({ ...a, createdAt: iso(a.createdAt) })),
    // Tickets bought on the site: what was paid and refunded, with Stripe's ids to quote to the club.
    tickets: tickets.map(({ purchase: t, event }) => ({
      event,
      status: t.status,
      amountCents: t.amountCents,
      currency: t.currency,
      checkoutSessionId: t.checkoutSessionId,
      paymentIntentId: t.paymentIntentId,
      startedAt: iso(t.createdAt),
      paidAt: iso(t.paidAt),
      refundedAt: iso(t.refundedAt),
      refundedCents: t.refundedCents,
      refundReason: t.refundReason,
    })),
    lettersSent: sent.map((l) => ({ ...l, createdAt: iso(l.createdAt), deliveredAt: iso(l.deliveredAt) })),
    lettersToYourCharacter: received.map((l) => ({ ...l, deliveredAt: iso(l.deliveredAt), readAt: iso(l.readAt) })),
    attendance: attendance.map(({ attendance: a, event }) => ({
      event,
      cabin: a.cabin,
      paymentStatus: a.paymentStatus,
      characterName: a.characterName,
      recordedAt: iso(a.createdAt),
    })),
    eventsCountedByTheOldSite:
      profile.oldSiteEventsAttended === null
        ? null
        : { events: profile.oldSiteEventsAttended, countedBefore: profile.oldSiteEventsAsOf },
    signInHistory: sessionRows.map((s) => ({
      ...s,
      createdAt: iso(s.createdAt),
      updatedAt: iso(s.updatedAt),
      expiresAt: iso(s.expiresAt),
    })),
    signInMethods: methods.map((m) => ({
      method: m.providerId === "credential" ? "password" : m.providerId,
      createdAt: iso(m.createdAt),
      updatedAt: iso(m.updatedAt),
    })),
    secondFactors: factors.map((f) => ({ kind: "authenticator app", confirmed: f.verified })),
    passkeys: keys.map((k) => ({ ...k, createdAt: iso(k.createdAt) })),
    auditLog: audits.map((a) => ({ action: a.action, createdAt: iso(a.createdAt), byYou: a.actorId === userId })),
  };
  return { json, files: [...files, ...photoFiles] };
}
