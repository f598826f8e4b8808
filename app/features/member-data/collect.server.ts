import type { Database, Transaction } from "~/platform/db/client.server";
import { memberRows } from "./member-rows.server";

/**
 * What "Take it out" gives a member (member-data.server.ts builds the ZIP): every row the site
 * holds about them (member-rows.server.ts), as data.json, and the stored files to put beside it.
 */

const iso = (value: Date | string | null | undefined) => (value == null ? null : new Date(value).toISOString());

/** A file name safe inside a ZIP on every system: the member's own name, without paths. */
function zipName(index: number, fileName: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this replaces
  const base = fileName.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, "_").slice(-120) || "file";
  return `files/${String(index + 1).padStart(3, "0")}-${base}`;
}

/** Everything about the member, as written to data.json: no secret, token, hash or key ever. */
export async function collectMemberData(db: Database | Transaction, userId: string) {
  const rows = await memberRows(db, userId);
  if (!rows) return null;
  const files = rows.papers.map(({ paper }, index) => ({ key: paper.fileKey, name: zipName(index, paper.fileName) }));
  const photoFiles = rows.photos.map(({ photo, event }, index) => ({
    key: photo.fileKey,
    name: zipName(
      rows.papers.length + index,
      `costume ${event.date} ${index + 1}.${photo.fileType === "image/png" ? "png" : "jpg"}`,
    ),
  }));
  const json = {
    format: "Hopewell member data, version 1",
    exportedAt: new Date().toISOString(),
    profile: {
      id: rows.profile.id,
      firstName: rows.profile.firstName,
      lastName: rows.profile.lastName,
      email: rows.profile.email,
      emailVerified: rows.profile.emailVerified,
      role: rows.profile.role,
      twoFactorPhone: rows.profile.twoFactorPhone,
      createdAt: iso(rows.profile.createdAt),
      updatedAt: iso(rows.profile.updatedAt),
    },
    emergencyContact: rows.profile.emergencyContact ?? null,
    // Which of the managers' messages the member chose to be emailed.
    messageChoices: { clubNews: rows.profile.newsEmails, eventMessages: rows.profile.eventEmails },
    application: rows.application
      ? (() => {
          const { userId: _owner, decidedBy: _decidedBy, ...rest } = rows.application;
          return { ...rest, createdAt: iso(rest.createdAt), decidedAt: iso(rest.decidedAt) };
        })()
      : null,
    character: rows.character
      ? {
          characterName: rows.character.characterName,
          backstory: rows.character.backstory,
          faction: rows.character.faction,
          job: rows.character.job,
          createdAt: iso(rows.character.createdAt),
          updatedAt: iso(rows.character.updatedAt),
        }
      : null,
    postEventLetters: rows.memberPels.map(({ pel, event }) => {
      const { userId: _owner, submissionKey: _key, eventId: _event, ...rest } = pel;
      return { event, ...rest, createdAt: iso(rest.createdAt) };
    }),
    merchantOrders: rows.orders.map(({ order, event }) => ({
      id: order.id,
      event,
      items: order.items,
      // Each item's name, unit and price as the member saw them when ordering.
      pricedItems: order.pricedItems,
      totalPrice: order.totalPrice,
      createdAt: iso(order.createdAt),
    })),
    researchPapers: rows.papers.map(({ paper, event }, index) => ({
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
    costumePhotos: rows.photos.map(({ photo, event }, index) => ({
      id: photo.id,
      event,
      fileType: photo.fileType,
      fileSize: photo.fileSize,
      width: photo.width,
      height: photo.height,
      fileInThisZip: photoFiles[index]!.name,
      createdAt: iso(photo.createdAt),
    })),
    costumeVerdicts: rows.costumeVerdicts.map((v) => ({
      event: v.event,
      verdict: v.verdict,
      note: v.note,
      reviewedAt: iso(v.reviewedAt),
    })),
    costumeReminders: rows.reminders.map((r) => ({ event: r.event, daysBefore: r.daysBefore, sentAt: iso(r.sentAt) })),
    // Each message as the managers wrote it: {first name} and {last name} stood for the member's names.
    messagesFromTheClub: rows.notices.map((n) => ({
      subject: n.subject,
      body: n.body,
      sentTo: n.group,
      kind: n.kind === "news" ? "club news" : "event message",
      sentAt: iso(n.sentAt),
      email: n.status,
      notEmailedBecause: n.status === "left-out" ? n.reason : null,
      emailedAt: iso(n.emailedAt),
    })),
    answersFromStaff: rows.answers.map((a) => ({ ...a, createdAt: iso(a.createdAt) })),
    // Tickets bought on the site: what was paid and refunded, with Stripe's ids to quote to the club.
    tickets: rows.tickets.map(({ purchase: t, event }) => ({
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
    lettersSent: rows.sent.map((l) => ({ ...l, createdAt: iso(l.createdAt), deliveredAt: iso(l.deliveredAt) })),
    lettersToYourCharacter: rows.received.map((l) => ({
      ...l,
      deliveredAt: iso(l.deliveredAt),
      readAt: iso(l.readAt),
    })),
    attendance: rows.attendance.map(({ attendance: a, event }) => ({
      event,
      cabin: a.cabin,
      paymentStatus: a.paymentStatus,
      characterName: a.characterName,
      recordedAt: iso(a.createdAt),
    })),
    eventsCountedByTheOldSite:
      rows.profile.oldSiteEventsAttended === null
        ? null
        : { events: rows.profile.oldSiteEventsAttended, countedBefore: rows.profile.oldSiteEventsAsOf },
    signInHistory: rows.sessionRows.map((s) => ({
      ...s,
      createdAt: iso(s.createdAt),
      updatedAt: iso(s.updatedAt),
      expiresAt: iso(s.expiresAt),
    })),
    signInMethods: rows.methods.map((m) => ({
      method: m.providerId === "credential" ? "password" : m.providerId,
      createdAt: iso(m.createdAt),
      updatedAt: iso(m.updatedAt),
    })),
    secondFactors: rows.factors.map((f) => ({ kind: "authenticator app", confirmed: f.verified })),
    passkeys: rows.keys.map((k) => ({ ...k, createdAt: iso(k.createdAt) })),
    auditLog: rows.audits.map((a) => ({ action: a.action, createdAt: iso(a.createdAt), byYou: a.actorId === userId })),
  };
  return { json, files: [...files, ...photoFiles] };
}
