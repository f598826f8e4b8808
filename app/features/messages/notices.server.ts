// The member's Notices: every message the managers sent them, as it was written to them.
import { count, desc, eq } from "drizzle-orm";
import type { MessageChoice, RecipientStatus } from "~/game/messages";
import { lastPage } from "~/lib/paging";
import { database } from "~/platform/db/client.server";
import { clubMessageRecipients, clubMessages } from "~/platform/db/schema";
import { copySubject, noticeHtml, type Addressee } from "./message-email.server";
import { COPY_REASONS } from "./deliver.server";

/** Notices on a page: each opens in place, so a page of them stays short to read. */
export const NOTICES_PAGE_SIZE = 20;

/** One message as the member reads it: their copy, its fields filled in with their names. */
export type Notice = {
  id: string;
  subject: string;
  /** The body's HTML (only formatted text's safe subset, the member's names escaped). */
  html: string;
  group: string;
  sentAt: string;
  choice: MessageChoice;
  status: RecipientStatus;
  /** Left out because the account was suspended, not by the member's choice. */
  suspended: boolean;
  emailedAt: string | null;
};

export type NoticesPage = { notices: Notice[]; total: number; page: number; lastPage: number };

/**
 * One page of the member's notices, newest first: every copy that was for them, whether it was
 * emailed, is still going, or was left out by their choices. Only their own copies are read
 * (`user_id`), and each is filled in with the names the member has now.
 */
export async function memberNotices(member: Addressee, page: number): Promise<NoticesPage> {
  const db = await database();
  const mine = eq(clubMessageRecipients.userId, member.id);
  const [[counted], rows] = await Promise.all([
    db.select({ total: count() }).from(clubMessageRecipients).where(mine),
    db
      .select({
        id: clubMessageRecipients.id,
        status: clubMessageRecipients.status,
        reason: clubMessageRecipients.reason,
        emailedAt: clubMessageRecipients.sentAt,
        subject: clubMessages.subject,
        body: clubMessages.body,
        group: clubMessages.audienceLabel,
        choice: clubMessages.choice,
        sentAt: clubMessages.createdAt,
      })
      .from(clubMessageRecipients)
      .innerJoin(clubMessages, eq(clubMessages.id, clubMessageRecipients.messageId))
      .where(mine)
      .orderBy(desc(clubMessages.createdAt), desc(clubMessageRecipients.id))
      .limit(NOTICES_PAGE_SIZE)
      .offset(page * NOTICES_PAGE_SIZE),
  ]);
  const total = counted?.total ?? 0;
  return {
    total,
    page,
    lastPage: lastPage(total, NOTICES_PAGE_SIZE),
    notices: rows.map((row) => ({
      id: row.id,
      subject: copySubject(row.subject, member),
      html: noticeHtml(row.body, member),
      group: row.group,
      sentAt: row.sentAt.toISOString(),
      choice: row.choice,
      status: row.status,
      suspended: row.status === "left-out" && row.reason === COPY_REASONS.suspended,
      emailedAt: row.emailedAt?.toISOString() ?? null,
    })),
  };
}
