import { randomUUID } from "node:crypto";
import { and, asc, desc, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { LETTER_MESSAGES } from "~/features/letters/letters.messages";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { config, overrideConfig } from "~/platform/config.server";
import { SUBMISSION_REDIRECT_SECONDS } from "~/game/rules";
import { deleteAccount } from "~/features/accounts/account-deletion.server";
import { characterValues, letterValues } from "~/platform/db/factories";
import { auditLog, characters, letters } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";
import { inPageOrder, readable } from "../../helpers/html";

/**
 * Letters that arrive, over real HTTP: delivery to a player's character with and without the
 * staff's release, reply threads, letters to NPCs answered by staff, read state and unread
 * counts, and that nobody reads a letter that is not theirs.
 */
const db = withTestDatabase();
const app = withAppServer();

type Member = Awaited<ReturnType<typeof signedInMember>> & { character?: string };

async function page(path: string, member: Member) {
  const response = await fetch(app().url + path, { headers: { Cookie: member.cookie }, redirect: "manual" });
  return { status: response.status, text: readable(await response.text()) };
}

async function send(member: Member, path: string, fields: Record<string, string>) {
  const response = await postForm(app().url, path, fields, member.cookie);
  return { status: response.status, text: readable(await response.text()) };
}

/** The unread count the navigation shows, or 0 when it shows none. */
async function navCount(member: Member): Promise<number> {
  const { text } = await page("/events", member);
  const found = /data-testid="unread-letters"[^>]*>(\d+)/.exec(text);
  return found ? Number(found[1]) : 0;
}

let counter = 0;
async function player(characterName?: string): Promise<Member> {
  const member: Member = await signedInMember("player");
  if (characterName) {
    member.character = `${characterName} ${++counter}`;
    await db()
      .insert(characters)
      .values(characterValues(member.id, { characterName: member.character }));
  }
  return member;
}

async function lettersBy(member: Member) {
  return db()
    .select()
    .from(letters)
    .where(eq(letters.userId, member.id))
    .orderBy(asc(letters.createdAt), asc(letters.id));
}

let staff: Member;
beforeAll(async () => {
  staff = await signedInMember("cast");
});

const needRelease = config().letters.needRelease;
afterEach(() => overrideConfig({ letters: { needRelease } }));

describe("a letter to a player's character", () => {
  it("arrives in the recipient's letter box once staff release it, signed with the writer's character only", async () => {
    expect(needRelease).toBe(true);
    const writer = await player("Clara Dunmore");
    const reader = await player("Silas Thornwood");

    // The name as typed, in any case, finds the character.
    const sent = await send(writer, "/letters", {
      submissionKey: randomUUID(),
      recipient: `  ${reader.character!.toUpperCase()} `,
      body: "Meet me at the mill when the lanterns go out.",
    });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain("Letter Sent!");
    // Without scripts the page moves on to the profile by itself; with them its own timer does, so
    // the refresh is read only when scripts are off.
    expect(sent.text).toContain(
      `<noscript><meta http-equiv="refresh" content="${SUBMISSION_REDIRECT_SECONDS};url=/profile"/></noscript>`,
    );
    expect(sent.text).toContain(`It will arrive in ${reader.character}'s letter box once the club's staff release it.`);
    const [letter] = await lettersBy(writer);
    expect(letter).toMatchObject({
      recipient: reader.character,
      recipientId: reader.id,
      senderName: writer.character,
      status: "held",
      deliveredAt: null,
      readAt: null,
      threadId: null,
    });

    // Held: not in the recipient's box, not readable by its address, not counted.
    expect((await page("/letters?tab=box", reader)).text).not.toContain("lanterns go out");
    expect((await page(`/letters/${letter!.id}`, reader)).status).toBe(404);
    expect(await navCount(reader)).toBe(0);
    expect((await page("/profile", reader)).text).toContain("You have no unread letters.");
    // The writer sees it waiting.
    const writerBox = (await page("/letters?tab=box", writer)).text;
    expect(writerBox).toContain(`To ${reader.character}`);
    expect(writerBox).toContain("Waiting for the post");

    // Staff see it in the queue and release it; the release is audited.
    const queue = (await page("/view-letters?tab=held", staff)).text;
    expect(queue).toContain("lanterns go out");
    expect(queue).toContain("Waiting for release (1)");
    const released = await send(staff, "/view-letters?tab=held", { intent: "release", letterId: letter!.id });
    expect(released.status).toBe(200);
    expect(released.text).toContain(LETTER_MESSAGES.released);
    const [after] = await lettersBy(writer);
    expect(after).toMatchObject({ status: "delivered", deliveredAt: expect.any(Date) });
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, "letter.release"));
    expect(entry).toMatchObject({
      actorId: staff.id,
      subjectId: writer.id,
      details: { letterId: letter!.id, recipientId: reader.id },
    });
    expect((await send(staff, "/view-letters", { intent: "release", letterId: letter!.id })).status).toBe(409);

    // Now it has arrived: counted, listed, readable; never the writer's name or address.
    expect(await navCount(reader)).toBe(1);
    expect((await page("/profile", reader)).text).toContain("You have 1 unread letter.");
    const box = (await page("/letters?tab=box", reader)).text;
    expect(box).toContain(`From ${writer.character}`);
    expect(box).toContain("Unread");
    expect(box).toContain("Letter box (1 unread)");
    for (const text of [box, (await page(`/letters/${letter!.id}`, reader)).text]) {
      expect(text).toContain("lanterns go out");
      expect(text).not.toContain(writer.email);
      expect(text).not.toContain(`${writer.firstName} player`);
      expect(text).not.toContain(writer.id);
    }
    // Opening it read it.
    const [read] = await lettersBy(writer);
    expect(read!.readAt).toBeInstanceOf(Date);
    expect(await navCount(reader)).toBe(0);
    expect((await page("/letters?tab=box", reader)).text).not.toContain(">Unread<");
    // The writer's own count is untouched by it.
    expect(await navCount(writer)).toBe(0);
  });

  it("arrives at once when the club sets LETTERS_NEED_RELEASE=false, and counts each unread letter", async () => {
    overrideConfig({ letters: { needRelease: false } });
    const writer = await player("Hattie Marsh");
    const reader = await player("Josiah Quill");
    for (const body of ["The first letter.", "The second letter."]) {
      const sent = await send(writer, "/letters", { submissionKey: randomUUID(), recipient: reader.character!, body });
      expect(sent.text).toContain(`It has arrived in ${reader.character}'s letter box.`);
    }
    const rows = await lettersBy(writer);
    expect(rows.map((row) => row.status)).toEqual(["delivered", "delivered"]);
    expect(await navCount(reader)).toBe(2);
    expect((await page("/profile", reader)).text).toContain("You have 2 unread letters.");
    expect((await page(`/letters/${rows[0]!.id}`, reader)).text).toContain("The first letter.");
    expect(await navCount(reader)).toBe(1);
    expect((await page("/profile", reader)).text).toContain("You have 1 unread letter.");
  });
});

describe("the letter box", () => {
  it("counts every delivered letter on each page, past the last page too", async () => {
    const writer = await player("Ada Crane");
    const reader = await player("Eli Stroud");
    const at = Date.now();
    await db()
      .insert(letters)
      .values(
        Array.from({ length: 27 }, (_, i) =>
          letterValues(writer.id, {
            recipient: reader.character!,
            recipientId: reader.id,
            status: "delivered",
            deliveredAt: new Date(at - i * 60_000),
            body: `Letter number ${i + 1}.`,
          }),
        ),
      );
    // One held back by staff is not the reader's yet, and is not counted.
    await db()
      .insert(letters)
      .values(
        letterValues(writer.id, {
          recipient: reader.character!,
          recipientId: reader.id,
          status: "held",
          body: "Letter held back.",
        }),
      );

    const first = await page("/letters?tab=box", reader);
    expect(first.text).toContain("27 letters");
    expect(first.text).toContain("Page 1 of 2");
    expect(first.text).not.toContain("Letter number 26.");
    expect(first.text).not.toContain("Letter held back.");
    // Newest first: letter 1 arrived last.
    const newestFirst = Array.from({ length: 25 }, (_, i) => `Letter number ${i + 1}.`);
    expect(inPageOrder(first.text, newestFirst)).toEqual(newestFirst);

    // The writer's own latest 25 of 28, in the database's newest-first order (all 28 written at one moment: then by id).
    const written = await db()
      .select({ body: letters.body })
      .from(letters)
      .where(eq(letters.userId, writer.id))
      .orderBy(desc(letters.createdAt), desc(letters.id));
    const writerBox = (await page("/letters?tab=box", writer)).text;
    const latest = written.slice(0, 25).map((letter) => letter.body);
    expect(inPageOrder(writerBox, latest)).toEqual(latest);
    for (const letter of written.slice(25)) expect(writerBox).not.toContain(letter.body);
    expect(writerBox).toContain("No letters have arrived for you yet.");

    const second = await page("/letters?tab=box&page=1", reader);
    expect(second.text).toContain("27 letters");
    expect(second.text).toContain("Page 2 of 2");
    expect(second.text).toContain("Letter number 27.");
    expect(second.text).not.toContain("Letter number 25.");

    const past = await page("/letters?tab=box&page=7", reader);
    expect(past.status).toBe(200);
    expect(past.text).toContain("27 letters");
    expect(past.text).toContain("Past the last page (2)");
    expect(past.text).not.toContain("No letters have arrived for you yet.");

    const empty = await page("/letters?tab=box", await player("Nobody Writes"));
    expect(empty.text).toContain("0 letters");
    expect(empty.text).toContain("No letters have arrived for you yet.");
  });

  it("shows the start of a long letter cut at a word, with an ellipsis, to its reader and its writer", async () => {
    const writer = await player("Ada Crane");
    const reader = await player("Eli Stroud");
    const opening =
      "Send fabric for a mourning dress, black, and enough of it for the widow Hale and her two girls. ".repeat(2);
    const body = `${opening}The rest of this letter is not in the preview.`;
    await db()
      .insert(letters)
      .values(
        letterValues(writer.id, {
          recipient: reader.character!,
          recipientId: reader.id,
          status: "delivered",
          deliveredAt: new Date(),
          body,
        }),
      );
    const shown =
      "Send fabric for a mourning dress, black, and enough of it for the widow Hale and her two girls. Send fabric for a mourning dress, black, and enough of it for…";
    for (const box of [(await page("/letters?tab=box", reader)).text, (await page("/letters?tab=box", writer)).text]) {
      expect(box).toContain(shown);
      expect(box).not.toContain("widow Hale and her two girls. The rest");
    }
  });
});

describe("replies", () => {
  it("are not offered, and not stored, when the letter's writer has deleted their account", async () => {
    const writer = await player("Obadiah Finch");
    const reader = await player("Lottie Vance");
    overrideConfig({ letters: { needRelease: false } });
    await send(writer, "/letters", {
      submissionKey: randomUUID(),
      recipient: reader.character!,
      body: "Meet me by the old well.",
    });
    const [first] = await lettersBy(writer);
    expect((await page(`/letters/${first!.id}`, reader)).text).toContain(`name="replyTo" value="${first!.id}"`);

    expect(await deleteAccount(writer.id, { actorId: writer.id })).toMatchObject({ ok: true });
    const thread = (await page(`/letters/${first!.id}`, reader)).text;
    // The letter is still there to read; the reply form is not.
    expect(thread).toContain("Meet me by the old well.");
    expect(thread).toContain(LETTER_MESSAGES.writerGone);
    expect(thread).not.toContain('name="replyTo"');
    const refused = await send(reader, `/letters/${first!.id}`, {
      intent: "reply",
      submissionKey: randomUUID(),
      replyTo: first!.id,
      body: "Which well?",
    });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain(LETTER_MESSAGES.writerGone);
    expect(await lettersBy(reader)).toEqual([]);
  });

  it("form a thread, go through the release rule, and reach the first writer", async () => {
    const writer = await player("Ezra Holt");
    const reader = await player("Mercy Pickett");
    overrideConfig({ letters: { needRelease: false } });
    await send(writer, "/letters", {
      submissionKey: randomUUID(),
      recipient: reader.character!,
      body: "Are you the one who bought the map?",
    });
    const [first] = await lettersBy(writer);
    overrideConfig({ letters: { needRelease: true } });

    // The reply form is there for the letter received; a blank reply is refused.
    const thread = (await page(`/letters/${first!.id}`, reader)).text;
    expect(thread).toContain(`Reply to ${writer.character}`);
    expect(thread).toContain(`name="replyTo" value="${first!.id}"`);
    const blank = await send(reader, `/letters/${first!.id}`, {
      intent: "reply",
      submissionKey: randomUUID(),
      replyTo: first!.id,
      body: "  ",
    });
    expect(blank.status).toBe(400);
    expect(blank.text).toContain(SUBMISSION_MESSAGES.fillAllFields);

    const key = randomUUID();
    const reply = { intent: "reply", submissionKey: key, replyTo: first!.id, body: "I might be. Who is asking?" };
    const answered = await send(reader, `/letters/${first!.id}`, reply);
    expect(answered.status).toBe(200);
    expect(answered.text).toContain(
      `Your reply is on its way. It will arrive in ${writer.character}'s letter box once the club's staff release it.`,
    );
    // Sent twice (a double click): one reply.
    await send(reader, `/letters/${first!.id}`, reply);
    const replies = await lettersBy(reader);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({
      threadId: first!.id,
      recipientId: writer.id,
      recipient: writer.character,
      senderName: reader.character,
      status: "held",
      fromNpc: false,
    });

    // The first writer sees only their own letter until the reply is released.
    expect((await page(`/letters/${first!.id}`, writer)).text).not.toContain("Who is asking?");
    expect(await navCount(writer)).toBe(0);
    await send(staff, "/view-letters", { intent: "release", letterId: replies[0]!.id });
    expect(await navCount(writer)).toBe(1);
    const both = (await page(`/letters/${replies[0]!.id}`, writer)).text;
    expect(both).toContain("Are you the one who bought the map?");
    expect(both).toContain("Who is asking?");
    expect(both).toContain(`From ${reader.character}`);
    expect(both.indexOf("bought the map")).toBeLessThan(both.indexOf("Who is asking?"));
    // And answers it in the same thread.
    overrideConfig({ letters: { needRelease: false } });
    const again = await send(writer, `/letters/${first!.id}`, {
      intent: "reply",
      submissionKey: randomUUID(),
      replyTo: replies[0]!.id,
      body: "A friend of the assayer.",
    });
    expect(again.text).toContain(`It has arrived in ${reader.character}'s letter box.`);
    const [second] = (await lettersBy(writer)).filter((row) => row.id !== first!.id);
    expect(second).toMatchObject({ threadId: first!.id, recipientId: reader.id, status: "delivered" });
    const readerThread = (await page(`/letters/${first!.id}`, reader)).text;
    expect(readerThread).toContain("A friend of the assayer.");
    expect(readerThread).toContain(`name="replyTo" value="${second!.id}"`);
  });
});

describe("a letter to someone who is no player's character", () => {
  it("goes to staff, who answer as that NPC into the writer's letter box; the writer can answer back", async () => {
    const writer = await player("Nell Voss");
    const npc = `Widow Harlan ${randomUUID().slice(0, 6)}`;
    const sent = await send(writer, "/letters", {
      submissionKey: randomUUID(),
      recipient: npc,
      body: "Who was buried under the old mill?",
    });
    expect(sent.text).toContain(`${npc} is no player's character, so the club's staff will answer for them.`);
    const [letter] = await lettersBy(writer);
    expect(letter).toMatchObject({
      recipient: npc,
      recipientId: null,
      status: "to_staff",
      senderName: writer.character,
    });

    const queue = (await page("/view-letters?tab=npc", staff)).text;
    expect(queue).toContain("Who was buried under the old mill?");
    // The answer form opens for the letter being answered, not on every letter of the page.
    expect(queue).not.toContain(`Answer as ${npc}`);
    expect(queue).toContain(`answer=${letter!.id}#queue-${letter!.id}`);
    expect((await page(`/view-letters?tab=npc&answer=${letter!.id}`, staff)).text).toContain(`Answer as ${npc}`);
    // Members cannot answer for staff.
    expect(
      (
        await send(writer, "/view-letters", {
          intent: "answer",
          letterId: letter!.id,
          submissionKey: randomUUID(),
          body: "Nobody.",
        })
      ).status,
    ).toBe(403);
    const blank = await send(staff, "/view-letters?tab=npc", {
      intent: "answer",
      letterId: letter!.id,
      submissionKey: randomUUID(),
      body: "",
    });
    expect(blank.status).toBe(400);
    expect(blank.text).toContain(SUBMISSION_MESSAGES.fillAllFields);
    // A refused answer keeps its form open, with the problem beside it.
    expect(blank.text).toContain(`Answer as ${npc}`);

    const answer = {
      intent: "answer",
      letterId: letter!.id,
      submissionKey: randomUUID(),
      body: "Ask the preacher, child. He dug the hole.",
    };
    const answered = await send(staff, "/view-letters?tab=npc", answer);
    expect(answered.status).toBe(200);
    expect(answered.text).toContain(LETTER_MESSAGES.answered);
    expect((await send(staff, "/view-letters?tab=npc", { ...answer, submissionKey: randomUUID() })).status).toBe(409);
    const [original] = await lettersBy(writer);
    expect(original!.status).toBe("answered");
    const [reply] = await db()
      .select()
      .from(letters)
      .where(and(eq(letters.threadId, letter!.id), eq(letters.fromNpc, true)));
    expect(reply).toMatchObject({
      userId: staff.id,
      senderName: npc,
      recipient: writer.character,
      recipientId: writer.id,
      status: "delivered",
    });
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, "letter.answer"));
    expect(entry).toMatchObject({
      actorId: staff.id,
      subjectId: writer.id,
      details: { letterId: letter!.id, answerId: reply!.id, as: npc },
    });

    // It arrives, signed by the NPC; the staff member who wrote it is never named.
    expect(await navCount(writer)).toBe(1);
    const box = (await page("/letters?tab=box", writer)).text;
    expect(box).toContain(`From ${npc}`);
    const thread = (await page(`/letters/${reply!.id}`, writer)).text;
    expect(thread).toContain("He dug the hole.");
    expect(thread).not.toContain(staff.email);
    expect(thread).not.toContain(`${staff.firstName} cast`);
    // The staff member does not find the NPC's answer among their own letters.
    expect((await page("/letters?tab=box", staff)).text).not.toContain("He dug the hole.");

    // Writing back goes to staff again, in the same thread.
    const back = await send(writer, `/letters/${reply!.id}`, {
      intent: "reply",
      submissionKey: randomUUID(),
      replyTo: reply!.id,
      body: "The preacher is gone.",
    });
    expect(back.text).toContain(`${npc} is no player's character`);
    const [writeBack] = (await lettersBy(writer)).filter((row) => row.id !== letter!.id);
    expect(writeBack).toMatchObject({ threadId: letter!.id, recipientId: null, recipient: npc, status: "to_staff" });
    // Staff read the whole thread.
    const whole = (await page(`/view-letters?thread=${writeBack!.id}`, staff)).text;
    for (const body of ["Who was buried under the old mill?", "He dug the hole.", "The preacher is gone."])
      expect(whole).toContain(body);
  });
});

describe("letters that are not the member's", () => {
  it("cannot be read, replied to or released by anyone else, by any address or form", async () => {
    overrideConfig({ letters: { needRelease: false } });
    const writer = await player("Amos Calloway");
    const reader = await player("Prudence Ashby");
    const stranger = await player("Boone Crane");
    await send(writer, "/letters", {
      submissionKey: randomUUID(),
      recipient: reader.character!,
      body: "The silver is under the third step.",
    });
    const [letter] = await lettersBy(writer);

    for (const path of [
      `/letters/${letter!.id}`,
      `/letters/${letter!.id}.data`,
      "/letters/not-a-letter",
      `/letters/${randomUUID()}`,
    ]) {
      const seen = await page(path, stranger);
      if (!path.endsWith(".data")) expect(seen.status, path).toBe(404);
      expect(seen.text, path).not.toContain("third step");
    }
    expect((await page("/letters?tab=box", stranger)).text).not.toContain("third step");
    // A reply to it, posted to any thread's address, is refused and saves nothing.
    for (const path of [`/letters/${letter!.id}`, `/letters/${randomUUID()}`]) {
      const refused = await send(stranger, path, {
        intent: "reply",
        submissionKey: randomUUID(),
        replyTo: letter!.id,
        body: "Thank you kindly.",
      });
      expect(refused.status, path).toBe(404);
    }
    expect(await lettersBy(stranger)).toEqual([]);
    // The writer cannot answer their own letter as if received, nor members use the staff's forms.
    expect(
      (
        await send(writer, `/letters/${letter!.id}`, {
          intent: "reply",
          submissionKey: randomUUID(),
          replyTo: letter!.id,
          body: "Me again.",
        })
      ).status,
    ).toBe(404);
    expect((await send(stranger, "/view-letters", { intent: "release", letterId: letter!.id })).status).toBe(403);
    expect((await page("/view-letters", stranger)).status).toBe(302);
    // Reading someone else's letter marks nothing read.
    const [untouched] = await lettersBy(writer);
    expect(untouched!.readAt).toBeNull();
    expect(await navCount(reader)).toBe(1);
    // Staff still see every letter.
    expect((await page("/view-letters?q=third%20step", staff)).text).toContain("The silver is under the third step.");
  });
});
