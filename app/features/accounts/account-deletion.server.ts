import { and, eq, isNotNull, ne, or, sql, type SQL } from "drizzle-orm";
import { DELETION_MESSAGES } from "./account-deletion.form";
import { audit } from "~/platform/audit.server";
import { database, type Transaction } from "~/platform/db/client.server";
import {
  accounts,
  applications,
  auditLog,
  characters,
  clubMessageRecipients,
  costumePhotos,
  costumeReminders,
  costumeReviews,
  letters,
  reviewQueue,
  staffReplies,
  memberExports,
  merchantOrders,
  outbox,
  passkeys,
  pels,
  profiles,
  rateLimits,
  research,
  sessions,
  twoFactors,
  verifications,
} from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { emailOrderKey } from "~/platform/outbox/outbox.server";
import { smsOrderKey } from "~/platform/sms/sms.server";
import { removeFile } from "~/platform/storage/storage.server";

/**
 * "Leave": deleting a member's account, by the member (after re-authenticating) or by a
 * manager (audited). In one transaction:
 * - removed: emergency contact, application, character, PELs, merchant orders, research papers
 *   and costume photos (their files after the commit) with the photos' verdicts and reminders, staff's
 *   replies to the member's entries and their places in the review queues, their copies of the
 *   managers' messages (their Notices; a copy still waiting to go is then never sent),
 *   data exports, sessions, sign-in methods (password, Discord), second factors, passkeys, one-time tokens and rate-limit counters naming the address, and the
 *   emails to the member still in the outbox;
 * - kept without name or contact: the profile row becomes a placeholder (name: the character's
 *   name and "(former member)", a made-up address that can never receive mail, suspended, no
 *   sign-in method), so attendance and payment records, the audit log and the letters the member
 *   sent keep pointing at it. The member's name, address and phone numbers are also taken out of
 *   the audit log's details and of the messages to others in the outbox;
 * - letters to the member: those delivered stay (others wrote them) without the member's reading
 *   times; those still waiting for release are filed, as are the member's letters to NPCs still
 *   waiting for an answer, so nothing is delivered to an account no one can open.
 * The address is free at once: a new sign-up with it makes a new, unrelated account.
 */

/** The address a deleted account's placeholder gets: `.invalid` is reserved, so it never receives mail. */
export const DELETED_EMAIL_DOMAIN = "deleted.invalid";
export const DELETED_BAN_REASON = "account deleted";

/** Members' lists leave deleted accounts' placeholders out with this condition. */
export function notDeletedAccount(): SQL {
  return sql`${profiles.email} not like ${`%@${DELETED_EMAIL_DOMAIN}`}`;
}

export function isDeletedAccount(profile: { email: string }): boolean {
  return profile.email.endsWith(`@${DELETED_EMAIL_DOMAIN}`);
}

/** The member's name, address and phone numbers as they may appear in JSON text, longest first. */
function identifyingTexts(profile: typeof profiles.$inferSelect): { exact: string[]; words: string[] } {
  const phones = [profile.twoFactorPhone, profile.twoFactorPhonePending, profile.emergencyContact?.phone].filter(
    (v): v is string => Boolean(v && v.trim()),
  );
  const exact = [profile.email, ...phones];
  const words = [
    `${profile.firstName} ${profile.lastName}`,
    profile.name,
    profile.firstName,
    profile.lastName,
    profile.emergencyContact?.name ?? "",
  ].filter((v) => v.trim().length >= 2);
  const inJson = (value: string) => JSON.stringify(value).slice(1, -1);
  const unique = (values: string[]) => [...new Set(values.map(inJson))].sort((a, b) => b.length - a.length);
  return { exact: unique(exact), words: unique(words) };
}

/** A PostgreSQL regular expression matching `text` literally. */
const literal = (text: string) => text.replace(/[^A-Za-z0-9 ]/g, (c) => `\\${c}`);

/**
 * Replaces the member's identifying texts in a JSON column of the rows `where` picks. Names
 * match as whole words only, so a short name does not eat into other words.
 */
async function scrubJson(
  tx: Transaction,
  table: "audit_log" | "outbox",
  column: "details" | "payload",
  where: ReturnType<typeof sql>,
  texts: { exact: string[]; words: string[] },
) {
  const patterns = [...texts.exact.map(literal), ...texts.words.map((w) => `\\m${literal(w)}\\M`)];
  for (const pattern of patterns) {
    await tx.execute(
      sql`update ${sql.identifier(table)} set ${sql.identifier(column)} = regexp_replace(${sql.identifier(column)}::text, ${pattern}, '[removed]', 'gi')::jsonb
          where ${where} and ${sql.identifier(column)} is not null and ${sql.identifier(column)}::text ~* ${pattern}`,
    );
  }
}

export type DeletionOutcome = { ok: true; filesLeft: number } | { ok: false; status: number; message: string };

/**
 * Deletes the account of `userId`, for `actorId` (the member themself or a manager). Files are
 * removed once the transaction has committed; a removal that fails is retried, then left to the
 * daily orphan sweep (no row names the file any more), and logged without the member's details.
 */
export async function deleteAccount(userId: string, by: { actorId: string }): Promise<DeletionOutcome> {
  const db = await database();
  const fileKeys = await db.transaction(async (tx) => {
    const [profile] = await tx.select().from(profiles).where(eq(profiles.id, userId)).for("update");
    if (!profile || isDeletedAccount(profile)) return null;
    if (profile.role === "manager") {
      const [other] = await tx
        .select({ id: profiles.id })
        .from(profiles)
        .where(and(eq(profiles.role, "manager"), ne(profiles.id, userId)))
        .limit(1);
      if (!other) return "last-manager" as const;
    }
    const [character] = await tx
      .select({ name: characters.characterName })
      .from(characters)
      .where(eq(characters.userId, userId));
    const papers = await tx.select({ key: research.fileKey }).from(research).where(eq(research.userId, userId));
    const photos = await tx
      .select({ key: costumePhotos.fileKey, thumb: costumePhotos.thumbKey })
      .from(costumePhotos)
      .where(eq(costumePhotos.userId, userId));
    const exportFiles = await tx
      .select({ key: memberExports.fileKey })
      .from(memberExports)
      .where(and(eq(memberExports.userId, userId), isNotNull(memberExports.fileKey)));
    const texts = identifyingTexts(profile);
    const email = profile.email.toLowerCase();
    const like = `%${email.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

    for (const table of [
      applications,
      characters,
      pels,
      merchantOrders,
      research,
      costumePhotos,
      costumeReviews,
      costumeReminders,
      reviewQueue,
      staffReplies,
      clubMessageRecipients,
      memberExports,
      sessions,
      accounts,
      twoFactors,
      passkeys,
    ]) {
      await tx.delete(table).where(eq(table.userId, userId));
    }
    // Letters to the member: when they read them goes, and none waits any longer for release.
    await tx
      .update(letters)
      .set({ readAt: null })
      .where(and(eq(letters.recipientId, userId), isNotNull(letters.readAt)));
    await tx
      .update(letters)
      .set({ status: "filed" })
      .where(and(eq(letters.recipientId, userId), eq(letters.status, "held")));
    // Nor does a letter of theirs to an NPC wait for an answer nobody could read.
    await tx
      .update(letters)
      .set({ status: "filed" })
      .where(and(eq(letters.userId, userId), eq(letters.status, "to_staff"), eq(letters.fromNpc, false)));
    // One-time tokens (codes, links) and counters that name the address or the account.
    await tx
      .delete(verifications)
      .where(
        or(
          sql`lower(${verifications.identifier}) like ${like}`,
          sql`lower(${verifications.value}) like ${like}`,
          sql`${verifications.value} like ${`%${userId}%`}`,
        ),
      );
    await tx.delete(rateLimits).where(sql`lower(${rateLimits.key}) like ${like}`);
    // Mail to the member (sent, waiting or failed) goes; messages to others lose the member's details.
    await tx.delete(outbox).where(eq(outbox.orderKey, emailOrderKey(email)));
    // Texts to the member's numbers go too.
    for (const phone of [profile.twoFactorPhone, profile.twoFactorPhonePending]) {
      if (phone) await tx.delete(outbox).where(eq(outbox.orderKey, smsOrderKey(phone)));
    }
    // Anywhere in the outbox, only the whole name: a first name alone may well be someone else's.
    const fullNames = [...new Set([`${profile.firstName} ${profile.lastName}`, profile.name])].map((v) =>
      JSON.stringify(v).slice(1, -1),
    );
    await scrubJson(tx, "outbox", "payload", sql`true`, { exact: texts.exact, words: fullNames });
    await scrubJson(
      tx,
      "audit_log",
      "details",
      sql`${auditLog.subjectId} = ${userId} or ${auditLog.actorId} = ${userId}`,
      texts,
    );
    await scrubJson(tx, "audit_log", "details", sql`true`, { exact: texts.exact, words: [] });

    await tx
      .update(profiles)
      .set({
        firstName: character?.name ?? "Former",
        lastName: character ? "(former member)" : "member",
        name: character ? `${character.name} (former member)` : "Former member",
        email: `deleted-${userId.toLowerCase().replace(/[^a-z0-9]/g, "")}@${DELETED_EMAIL_DOMAIN}`,
        emailVerified: false,
        image: null,
        emergencyContact: null,
        twoFactorEnabled: false,
        twoFactorPhone: null,
        twoFactorPhonePending: null,
        role: "applicant",
        banned: true,
        banReason: DELETED_BAN_REASON,
        banExpires: null,
        updatedAt: sql`now()`,
      })
      .where(eq(profiles.id, userId));
    await audit(tx, {
      actorId: by.actorId,
      action: "account.delete",
      subjectId: userId,
      details: { by: by.actorId === userId ? "member" : "manager" },
    });
    return [...papers, ...exportFiles, ...photos.flatMap((photo) => [{ key: photo.key }, { key: photo.thumb }])]
      .map((row) => row.key)
      .filter((key): key is string => Boolean(key));
  });
  if (fileKeys === null) return { ok: false, status: 404, message: DELETION_MESSAGES.alreadyDeleted };
  if (fileKeys === "last-manager") return { ok: false, status: 409, message: DELETION_MESSAGES.lastManager };
  const filesLeft = await removeFiles(fileKeys);
  return { ok: true, filesLeft };
}

/** Removes each file, trying three times; returns how many are left for the orphan sweep. */
async function removeFiles(keys: string[], waitsMs = [200, 1_000]): Promise<number> {
  let left = 0;
  for (const key of keys) {
    for (let attempt = 0; ; attempt++) {
      try {
        await removeFile(key);
        break;
      } catch (error) {
        if (attempt >= waitsMs.length) {
          left++;
          logger.warn({ err: error }, "removing a deleted account's file failed; the orphan sweep removes it");
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, waitsMs[attempt]));
      }
    }
  }
  return left;
}

/** Whose account a manager is about to delete (a name to confirm with), one already deleted, or null (no such member). */
export async function memberToDelete(
  userId: string,
): Promise<
  | { deleted: false; id: string; firstName: string; lastName: string; role: string }
  | { deleted: true; id: string }
  | null
> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(userId)) return null;
  const db = await database();
  const [row] = await db
    .select({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      role: profiles.role,
      email: profiles.email,
    })
    .from(profiles)
    .where(eq(profiles.id, userId));
  if (!row) return null;
  if (isDeletedAccount(row)) return { deleted: true, id: row.id };
  return { deleted: false, id: row.id, firstName: row.firstName, lastName: row.lastName, role: row.role };
}
