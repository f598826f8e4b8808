// Which letters are a member's: delivered to them, written by them, theirs to see; and whether a
// letter's writer has left the club (a reply to them would reach nobody).
import { and, eq, or, type Placeholder, type SQL } from "drizzle-orm";
import { isDeletedAccount } from "~/features/accounts/account-deletion.server";
import { letters } from "~/platform/db/schema";

/** Letters delivered to a member: in their letter box. */
export const deliveredTo = (userId: string | Placeholder) =>
  and(eq(letters.recipientId, userId), eq(letters.status, "delivered"))!;
/** Letters a member wrote as themself (not those staff wrote as an NPC). */
export const writtenBy = (userId: string | Placeholder) => and(eq(letters.userId, userId), eq(letters.fromNpc, false))!;

/** A letter the member may see: one they wrote (not as an NPC), or one delivered to them. */
export function visibleTo(userId: string): SQL {
  return or(writtenBy(userId), deliveredTo(userId))!;
}

/** Whether a letter's writer (their account's email, if any is left) has left the club. */
export function writerLeft(email: string | null): boolean {
  return email === null || isDeletedAccount({ email });
}
