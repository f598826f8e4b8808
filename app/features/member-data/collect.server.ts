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
  const {
    profile,
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
  } = rows;
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
