import crypto from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { decodeHTML } from "entities";
import { and, count, eq, sql } from "drizzle-orm";
import { DomUtils, parseDocument } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { isUnsubscribeToken, MUST_REACH_FOOTER } from "~/features/messages/message-email.server";
import { ComposeSchema, MESSAGES_MESSAGES } from "~/features/messages/messages.form";
import { LEFT_OUT_REASON, sendMessage } from "~/features/messages/send.server";
import { overrideConfig } from "~/platform/config.server";
import { auditLog, clubMessageRecipients, clubMessages, outbox } from "~/platform/db/schema";
import { deliverDueMessages, startOutboxWorker } from "~/platform/outbox/outbox-worker.server";
import { withTestDatabase } from "../helpers/db";
import { headerOf, recipients, startSmtpServer } from "../helpers/smtp";
import { clubMessageFixtures, composed, deliverers, unpaced } from "../helpers/club-messages";

/**
 * A manager's message to a group of members, from the send to each member's inbox: the copies
 * and outbox rows one send writes, the emails a real SMTP server receives through the outbox
 * (their fields, unsubscribe headers and footer), and hostile names and bodies. Refusals,
 * pacing, discards, stops and hang-ups are in club-messages-delivery.test.ts.
 */
const db = withTestDatabase();
const { original, attendanceGroup, aManager, copiesOf, outboxRowsOf } = clubMessageFixtures(db);

describe("sending a message to a group", () => {
  it("writes a copy for each member, an outbox row for each queued one, once per form, and nothing for an empty group", async () => {
    const { event, members } = await attendanceGroup([
      { firstName: "Ada", email: "ada@example.com" },
      // Club news switched off: event messages still come.
      { firstName: "Bram", email: "bram@example.com", newsEmails: false },
      { firstName: "Cora", email: "cora@example.com", eventEmails: false },
      { firstName: "Dov", email: "dov@example.com", banned: true },
    ]);
    const form = composed(event.id);
    const outcome = await sendMessage(await aManager(), form);
    expect(outcome).toMatchObject({ outcome: "sent", queued: 2, leftOut: 1 });
    const messageId = (outcome as { messageId: string }).messageId;

    const copies = await copiesOf(messageId);
    expect([...copies.keys()]).toEqual(["ada@example.com", "bram@example.com", "cora@example.com"]);
    expect(copies.get("ada@example.com")).toMatchObject({ status: "queued", reason: null, sentAt: null });
    expect(copies.get("bram@example.com")).toMatchObject({ status: "queued", reason: null });
    expect(copies.get("cora@example.com")).toMatchObject({ status: "left-out", reason: LEFT_OUT_REASON.events });
    const rows = await outboxRowsOf([...copies.values()].map((copy) => copy.id));
    expect(rows.map((row) => row.payload.recipientId).sort()).toEqual(
      [copies.get("ada@example.com")!.id, copies.get("bram@example.com")!.id].sort(),
    );
    expect(rows.every((row) => row.status === "pending" && !row.urgent)).toBe(true);
    // The suspended member is no recipient at all.
    const suspended = members.find((member) => member.banned)!;
    const theirs = await db()
      .select({ n: count() })
      .from(clubMessageRecipients)
      .where(eq(clubMessageRecipients.userId, suspended.id));
    expect(theirs[0]!.n).toBe(0);

    const [record] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "message.send"), sql`${auditLog.details}->>'message' = ${messageId}`));
    expect(record).toMatchObject({ actorId: (await aManager()).id, details: { queued: 2, leftOut: 1 } });

    // The same form posted again (a second press, a retried request) writes nothing more.
    const counts = async () => ({
      messages: (await db().select({ n: count() }).from(clubMessages))[0]!.n,
      copies: (await db().select({ n: count() }).from(clubMessageRecipients))[0]!.n,
      outbox: (await db().select({ n: count() }).from(outbox))[0]!.n,
    });
    const before = await counts();
    expect(await sendMessage(await aManager(), form)).toEqual({ outcome: "already-sent", messageId });
    expect(await counts()).toEqual(before);

    const empty = await attendanceGroup([]);
    const nobody = composed(empty.event.id);
    expect(await sendMessage(await aManager(), nobody)).toEqual({ outcome: "nobody" });
    expect(await counts()).toEqual(before);
    const [kept] = await db()
      .select({ n: count() })
      .from(clubMessages)
      .where(eq(clubMessages.submissionKey, nobody.submissionKey));
    expect(kept!.n).toBe(0);
  });
});

describe("a message that the event is moved or cancelled", () => {
  it("reaches every member of the event's group, whatever they chose; a club-wide group cannot be marked so", async () => {
    const group = await attendanceGroup([
      { firstName: "Dell", email: "dell@example.com" },
      { firstName: "Edna", email: "edna@example.com", eventEmails: false },
    ]);
    const moved = composed(group.event.id, { subject: "The muster moves to Sunday", mustReach: "on" });
    expect(moved.mustReach).toBe(true);
    const outcome = await sendMessage(await aManager(), moved);
    expect(outcome).toMatchObject({ outcome: "sent", queued: 2, leftOut: 0 });
    const copies = await copiesOf((outcome as { messageId: string }).messageId);
    expect(copies.get("edna@example.com")).toMatchObject({ status: "queued", reason: null });
    const [kept] = await db()
      .select({ mustReach: clubMessages.mustReach })
      .from(clubMessages)
      .where(eq(clubMessages.submissionKey, moved.submissionKey));
    expect(kept).toEqual({ mustReach: true });

    // Edna's email says why it reached her, and still offers to stop event messages to come.
    const smtp = await startSmtpServer();
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url }, messages: unpaced });
    try {
      await deliverDueMessages(deliverers);
    } finally {
      await smtp.close();
    }
    const edna = smtp.messages.find((mail) => recipients(mail) === "edna@example.com")!;
    expect(edna.text).toContain(
      `You receive this as a member of Hopewell. ${MUST_REACH_FOOTER} To stop messages about events`,
    );
    expect(edna.html).toContain(MUST_REACH_FOOTER.replace("'", "&#39;"));

    const everyone = ComposeSchema.parse({ subject: "News", body: "Hello.", audience: "all", mustReach: "on" });
    expect(everyone.mustReach).toBe(false);
  });
});

/** Waits until `expected` copies of the message are sent or failed (the outbox worker at work). */
async function settled(messageId: string, expected: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const copies = [...(await copiesOf(messageId)).values()];
    if (copies.filter((copy) => copy.status === "sent" || copy.status === "failed").length >= expected) return copies;
    if (Date.now() > deadline) throw new Error(`the copies did not all settle within ${timeoutMs} ms`);
    await sleep(50);
  }
}

type Element = { name: string; attribs: Record<string, string>; children: unknown[] };

/** What in an email's HTML could run script: an element, handler or address a mail program would act on. */
function whatCouldRun(html: string): string[] {
  const found: string[] = [];
  const document = parseDocument(html, { decodeEntities: true });
  for (const element of DomUtils.findAll(() => true, document.children) as unknown as Element[]) {
    if (["script", "img", "iframe", "object", "embed"].includes(element.name)) found.push(`<${element.name}>`);
    for (const [name, value] of Object.entries(element.attribs)) {
      if (/^on/i.test(name)) found.push(`${element.name} ${name}=${value}`);
      if (/^(href|src)$/i.test(name) && /^\s*(javascript|data|vbscript):/i.test(value))
        found.push(`${element.name} ${name}=${value}`);
    }
  }
  return found;
}

describe("the copies, through the outbox to a real SMTP server", () => {
  it("sends each queued member one email with their name, one-click unsubscribe headers and a footer link, and marks it sent", async () => {
    const smtp = await startSmtpServer();
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url }, messages: unpaced });
    const { event, members } = await attendanceGroup([
      { firstName: "Ada", lastName: "Lovelace", email: "ada.l@example.com" },
      { firstName: "Bram", lastName: "Stoker", email: "bram.s@example.com" },
      { firstName: "Cora", lastName: "Pearl", email: "cora.p@example.com", eventEmails: false },
    ]);
    const outcome = await sendMessage(await aManager(), composed(event.id));
    const messageId = (outcome as { messageId: string }).messageId;
    const worker = startOutboxWorker(deliverers, 50);
    try {
      await settled(messageId, 2);
      // A few more rounds: nothing is sent twice, nor to the member who chose not to receive it.
      await sleep(300);
    } finally {
      await worker.stop();
      await smtp.close();
    }
    expect(smtp.messages.map(recipients).sort()).toEqual(["ada.l@example.com", "bram.s@example.com"]);
    for (const member of members.filter((m) => m.eventEmails)) {
      const mail = smtp.messages.find((m) => recipients(m) === member.email)!;
      expect(mail.subject).toBe(`Muster at ${member.firstName}'s cabin`);
      expect(mail.text).toContain(`Dear ${member.firstName},`);
      expect(mail.html).toContain(`Dear ${member.firstName},`);
      expect(mail.html).toContain("<strong>lantern</strong>");

      const list = headerOf(mail, "List-Unsubscribe");
      const link = /^<(https?:\/\/[^>]+\/unsubscribe\?member=([^&>]+)&choice=([a-z]+)&token=([^&>]+))>$/.exec(
        list ?? "",
      );
      expect(link, `List-Unsubscribe: ${list}`).not.toBeNull();
      const [, url, memberId, choice, token] = link!;
      expect([memberId, choice]).toEqual([member.id, "events"]);
      // The token is this member's, for this choice: it works there and nowhere else.
      expect(await isUnsubscribeToken(member.id, "events", token!)).toBe(true);
      expect(await isUnsubscribeToken(member.id, "news", token!)).toBe(false);
      expect(headerOf(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
      // The same link in the footer, in both parts; an ordinary message does not claim to reach everyone.
      expect(mail.text).toContain(url);
      expect(mail.text).not.toContain(MUST_REACH_FOOTER);
      const anchors = DomUtils.findAll(
        (element) => element.name === "a",
        parseDocument(String(mail.html), { decodeEntities: true }).children,
      );
      expect(anchors.map((anchor) => anchor.attribs.href)).toContain(url);
    }
    const copies = await copiesOf(messageId);
    for (const email of ["ada.l@example.com", "bram.s@example.com"]) {
      expect(copies.get(email)).toMatchObject({ status: "sent", reason: null });
      expect(copies.get(email)!.sentAt).toBeInstanceOf(Date);
    }
    expect(copies.get("cora.p@example.com")).toMatchObject({ status: "left-out", sentAt: null });
    const rows = await outboxRowsOf([...copies.values()].map((copy) => copy.id));
    expect(rows.map((row) => [row.status, row.attempts])).toEqual([
      ["sent", 1],
      ["sent", 1],
    ]);
  });

  it("escapes a hostile first name and renders a hostile body inert", async () => {
    const smtp = await startSmtpServer();
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url }, messages: unpaced });
    const name = "<script>alert(1)</script>";
    const { event } = await attendanceGroup([{ firstName: name, email: "hostile@example.com" }]);
    const body = [
      "Dear {first name},",
      "<script>alert(2)</script>",
      "<img src=x onerror=alert(3)>",
      "[the rules](javascript:alert(4))",
      '<a href="javascript:alert(5)">rules</a>',
    ].join("\n\n");
    const outcome = await sendMessage(await aManager(), composed(event.id, { subject: "For {first name}", body }));
    const messageId = (outcome as { messageId: string }).messageId;
    try {
      await deliverDueMessages(deliverers);
    } finally {
      await smtp.close();
    }
    const [mail] = smtp.messages;
    const html = String(mail!.html);
    expect(whatCouldRun(html)).toEqual([]);
    // Shown as the text it is: in the heading (the subject) and the greeting.
    expect(html.split("&lt;script&gt;alert(1)&lt;/script&gt;").length - 1).toBe(2);
    const text = decodeHTML(html.replace(/<[^>]+>/g, " "));
    for (const hostile of ["<script>alert(2)</script>", "<img src=x onerror=alert(3)>"])
      expect(text).toContain(hostile);
    // A subject is plain text: the name as written, in one line.
    expect(mail!.subject).toBe(`For ${name}`);
    expect((await copiesOf(messageId)).get("hostile@example.com")).toMatchObject({ status: "sent" });
  });

  it("refuses a subject with a line break (a header of its own) and a body of a megabyte, with the field's message", () => {
    const base = { subject: "Muster", body: "Bring a lantern.", audience: "attendance", eventId: crypto.randomUUID() };
    const issues = (input: Record<string, string>) => {
      const parsed = ComposeSchema.safeParse(input);
      return parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]);
    };
    expect(issues(base)).toEqual([]);
    for (const subject of ["Muster\r\nBcc: everyone@example.com", "Muster\nBcc: x@example.com", "Muster\rX: 1"])
      expect(issues({ ...base, subject })).toContainEqual(["subject", MESSAGES_MESSAGES.subject]);
    expect(issues({ ...base, body: "x".repeat(1024 * 1024) })).toContainEqual(["body", MESSAGES_MESSAGES.body]);
  });
});
