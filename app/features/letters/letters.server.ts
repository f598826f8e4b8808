import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { LetterInput, ReplyInput } from "./letters.form";
import { type LetterDelivery, UNSIGNED } from "~/game/letters";
import { isUuid } from "~/lib/ids";
import type { SessionUser } from "~/lib/navigation";
import { config } from "~/platform/config.server";
import { database, type Database, type Transaction } from "~/platform/db/client.server";
import { characters, letters, profiles } from "~/platform/db/schema";
import { deliveredTo, writerLeft } from "./letter-access.server";

/**
 * Letters that arrive. A letter is addressed to a character by name: a player's character
 * (matched case-insensitively; of two with one name, the older) puts it in that member's
 * letter box, once staff release it (LETTERS_NEED_RELEASE) or at once; any other name is an
 * NPC's, and the letter goes to staff, who answer as the NPC into the writer's letter box.
 * Replies join the first letter's thread and follow the same rule. A recipient only ever
 * sees how a letter is signed (the writer's character), never who wrote it. What staff do with
 * letters (release, answer as an NPC) is in features/review/letter-review.server.ts; what members
 * read, in letter-box.server.ts and letter-threads.server.ts.
 */

type Db = Database | Transaction;

/** The character a name (as typed) is addressed to: of two with that name, the one made first. */
async function characterNamed(db: Db, name: string): Promise<{ userId: string; characterName: string } | null> {
  const [found] = await db
    .select({ userId: characters.userId, characterName: characters.characterName })
    .from(characters)
    .where(sql`lower(${characters.characterName}) = lower(${name.trim()})`)
    .orderBy(asc(characters.createdAt), asc(characters.id))
    .limit(1);
  return found ?? null;
}

/** How a member's letters are signed: their character's name, or null without one. */
async function signatureOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ name: characters.characterName })
    .from(characters)
    .where(eq(characters.userId, userId));
  return row?.name ?? null;
}

type Delivery = LetterDelivery;

/** Where a new letter to `recipientId` (null: an NPC) goes, under the club's setting. */
function deliveryTo(recipientId: string | null): { status: Delivery; deliveredAt: SQL | null } {
  if (!recipientId) return { status: "to_staff", deliveredAt: null };
  return config().letters.needRelease
    ? { status: "held", deliveredAt: null }
    : { status: "delivered", deliveredAt: sql`now()` };
}

/** Sends a letter from the letter form. A resubmitted form saves nothing new. */
export async function sendLetter(
  user: SessionUser,
  input: LetterInput,
): Promise<{ delivery: Delivery; recipient: string }> {
  const db = await database();
  return db.transaction(async (tx) => {
    const character = await characterNamed(tx, input.recipient);
    const recipientId = character?.userId ?? null;
    const recipient = character?.characterName ?? input.recipient;
    return saveLetter(tx, user, input, { recipient, recipientId });
  });
}

/**
 * Saves a letter the member wrote, signed with their character's name and held or delivered under
 * the release rule; a resubmitted form (its submission key already saved) saves nothing new.
 */
async function saveLetter(
  tx: Transaction,
  user: SessionUser,
  input: { submissionKey: string; body: string },
  to: { recipient: string; recipientId: string | null; threadId?: string },
): Promise<{ delivery: Delivery; recipient: string }> {
  const delivery = deliveryTo(to.recipientId);
  await tx
    .insert(letters)
    .values({
      submissionKey: input.submissionKey,
      userId: user.id,
      body: input.body,
      ...to,
      senderName: await signatureOf(tx, user.id),
      ...delivery,
    })
    .onConflictDoNothing({ target: letters.submissionKey });
  return { delivery: delivery.status, recipient: to.recipient };
}

/**
 * A reply, in character, to a letter delivered to the member: to its writer's letter box (under
 * the release rule), or to staff when it came from an NPC. Null when that letter is not one
 * delivered to them; "writer-gone" (nothing saved) when its writer has deleted their account.
 * A resubmitted form saves nothing new.
 */
export async function replyToLetter(
  user: SessionUser,
  input: ReplyInput,
): Promise<{ delivery: Delivery; recipient: string } | "writer-gone" | null> {
  if (!isUuid(input.replyTo)) return null;
  const db = await database();
  return db.transaction(async (tx) => {
    const [parent] = await tx
      .select({
        id: letters.id,
        threadId: letters.threadId,
        userId: letters.userId,
        fromNpc: letters.fromNpc,
        senderName: letters.senderName,
        writerEmail: profiles.email,
      })
      .from(letters)
      .leftJoin(profiles, eq(profiles.id, letters.userId))
      .where(and(eq(letters.id, input.replyTo), deliveredTo(user.id)));
    if (!parent) return null;
    if (!parent.fromNpc && writerLeft(parent.writerEmail)) return "writer-gone";
    const recipientId = parent.fromNpc ? null : parent.userId;
    const recipient = parent.senderName ?? UNSIGNED;
    return saveLetter(tx, user, input, { recipient, recipientId, threadId: parent.threadId ?? parent.id });
  });
}
