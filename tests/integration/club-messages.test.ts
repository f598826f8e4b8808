import crypto from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { decodeHTML } from "entities";
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { DomUtils, parseDocument } from "htmlparser2";
import { afterEach, describe, expect, it } from "vitest";
import { COPY_REASONS, deliverClubMessage, forgetMessagePacing } from "~/features/messages/deliver.server";
import { isUnsubscribeToken, MUST_REACH_FOOTER } from "~/features/messages/message-email.server";
import { ComposeSchema, MESSAGES_MESSAGES } from "~/features/messages/messages.form";
import { LEFT_OUT_REASON, sendMessage } from "~/features/messages/send.server";
import { config, overrideConfig } from "~/platform/config.server";
import { attendanceValues, createEvent, createProfile, profileValues } from "~/platform/db/factories";
import { auditLog, clubMessageRecipients, clubMessages, eventAttendance, outbox, profiles } from "~/platform/db/schema";
import { signInCodeEmail } from "~/platform/mail/account-templates.server";
import { deliverEmail } from "~/platform/mail/mailer.server";
import { DISCARDED_COPY_REASON, discardMessage, retryMessage } from "~/platform/outbox/outbox-view.server";
import { MAX_ATTEMPTS, queueEmail } from "~/platform/outbox/outbox.server";
import { deliverDueMessages, startOutboxWorker } from "~/platform/outbox/outbox-worker.server";
import { withTestDatabase } from "../helpers/db";
import { headerOf, recipients, startSmtpServer } from "../helpers/smtp";

/**
 * A manager's message to a group of members, from the send to each member's inbox: the copies
 * and outbox rows one send writes, the emails a real SMTP server receives through the outbox
 * (their fields, unsubscribe headers and footer), hostile names and bodies, refusals, pacing,
 * and a sign-in code that does not wait behind a slow mail server's pile of copies.
 */
const db = withTestDatabase();
const original = { mail: config().mail, messages: config().messages, outbox: config().outbox };
afterEach(async () => {
  overrideConfig(original);
  // What one test leaves waiting must not reach the next test's servers.
  await db().delete(outbox);
});

const deliverers = { email: deliverEmail, "club-message": deliverClubMessage };
/** Fast enough that pacing (MESSAGES_PER_MINUTE) does not slow the tests that are not about it. */
const unpaced = { perMinute: 6000 };

type MemberValues = Parameters<typeof profileValues>[0];

/** An event and the members on its attendance list: the group "On the event's attendance list". */
async function attendanceGroup(members: MemberValues[]) {
  const event = await createEvent(db());
  const rows =
    members.length === 0
      ? []
      : await db()
          .insert(profiles)
          .values(members.map((member) => profileValues({ role: "player", ...member })))
          .returning();
  if (rows.length > 0)
    await db()
      .insert(eventAttendance)
      .values(rows.map((row) => attendanceValues(row.id, event.id)));
  return { event, members: rows };
}

/** The compose form as a manager fills it in, read by its schema. */
function composed(eventId: string, fields: { subject?: string; body?: string; mustReach?: "on" } = {}) {
  const form = ComposeSchema.parse({
    subject: fields.subject ?? "Muster at {first name}'s cabin",
    body: fields.body ?? "Dear {first name},\n\nBring a **lantern** and your [letter](https://example.org/letter).",
    audience: "attendance",
    eventId,
    mustReach: fields.mustReach,
  });
  return { ...form, submissionKey: crypto.randomUUID() };
}

let manager: { id: string } | undefined;
async function aManager() {
  manager ??= await createProfile(db(), { role: "manager" });
  return manager;
}

/** Each member's copy of a message, by the member's email. */
async function copiesOf(messageId: string) {
  const rows = await db()
    .select({
      id: clubMessageRecipients.id,
      email: profiles.email,
      status: clubMessageRecipients.status,
      reason: clubMessageRecipients.reason,
      sentAt: clubMessageRecipients.sentAt,
    })
    .from(clubMessageRecipients)
    .innerJoin(profiles, eq(profiles.id, clubMessageRecipients.userId))
    .where(eq(clubMessageRecipients.messageId, messageId))
    .orderBy(asc(profiles.email));
  return new Map(rows.map((row) => [row.email, row]));
}

async function outboxRowsOf(copyIds: string[]) {
  if (copyIds.length === 0) return [];
  return db()
    .select()
    .from(outbox)
    .where(and(eq(outbox.kind, "club-message"), inArray(sql<string>`${outbox.payload}->>'recipientId'`, copyIds)));
}

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

describe("refusals, retries and pacing", () => {
  it("fails a copy the server refuses for good (550) with its reason, and sends a temporarily refused one (451) once on its retry", async () => {
    let refusals = 1;
    const smtp = await startSmtpServer(0, {
      refuse: (address) => {
        if (address === "gone@example.com") return 550;
        if (address === "busy@example.com" && refusals-- > 0) return 451;
        return undefined;
      },
    });
    overrideConfig({
      mail: { ...original.mail, smtpUrl: smtp.url },
      messages: unpaced,
      outbox: { ...original.outbox, retryBaseMs: 200 },
    });
    const { event } = await attendanceGroup([
      { email: "gone@example.com" },
      { email: "busy@example.com" },
      { email: "fine@example.com" },
    ]);
    const messageId = ((await sendMessage(await aManager(), composed(event.id))) as { messageId: string }).messageId;
    try {
      await deliverDueMessages(deliverers);
      let copies = await copiesOf(messageId);
      expect(copies.get("gone@example.com")!.status).toBe("failed");
      expect(copies.get("gone@example.com")!.reason).toMatch(/550/);
      expect(copies.get("busy@example.com")!.status).toBe("queued");
      expect(copies.get("busy@example.com")!.reason).toMatch(/451/);
      expect(copies.get("fine@example.com")).toMatchObject({ status: "sent", reason: null });
      const rows = await outboxRowsOf([...copies.values()].map((copy) => copy.id));
      expect(rows.map((row) => [row.status, row.attempts]).sort()).toEqual([
        ["failed", 1],
        ["pending", 1],
        ["sent", 1],
      ]);

      await sleep(250);
      await deliverDueMessages(deliverers);
      // Later rounds find nothing more to send.
      await deliverDueMessages(deliverers);
      copies = await copiesOf(messageId);
      expect(copies.get("busy@example.com")).toMatchObject({ status: "sent", reason: null });
      expect(copies.get("gone@example.com")!.status).toBe("failed");
    } finally {
      await smtp.close();
    }
    expect(smtp.messages.map(recipients).sort()).toEqual(["busy@example.com", "fine@example.com"]);
  });

  it("fails a copy on the outbox's last try, and sends it when a manager retries it", async () => {
    let refusing = true;
    const smtp = await startSmtpServer(0, { refuse: () => (refusing ? 451 : undefined) });
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url }, messages: unpaced });
    const { event } = await attendanceGroup([{ email: "patient@example.com" }]);
    const messageId = ((await sendMessage(await aManager(), composed(event.id))) as { messageId: string }).messageId;
    const copyId = (await copiesOf(messageId)).get("patient@example.com")!.id;
    const [row] = await outboxRowsOf([copyId]);
    // Eleven tries failed already: the next is the last.
    await db()
      .update(outbox)
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .where(eq(outbox.id, row!.id));
    try {
      await deliverDueMessages(deliverers);
      expect((await outboxRowsOf([copyId]))[0]).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
      const copy = (await copiesOf(messageId)).get("patient@example.com")!;
      expect(copy.status).toBe("failed");
      expect(copy.reason).toMatch(/451/);

      refusing = false;
      expect(await retryMessage(await aManager(), row!.id)).toBe(true);
      await deliverDueMessages(deliverers);
      expect((await copiesOf(messageId)).get("patient@example.com")).toMatchObject({ status: "sent", reason: null });
    } finally {
      await smtp.close();
    }
    expect(smtp.messages.map(recipients)).toEqual(["patient@example.com"]);
  });

  // A slower rate than a provider's would need: on a busy machine an SMTP send here takes up to a
  // quarter of a second, so five unpaced sends can take a second; at 150 a minute they take 1.6 s.
  it("keeps MESSAGES_PER_MINUTE: at 150 a minute, the fifth copy goes no sooner than 1.6 s after the first", async () => {
    // When each copy reaches the server (its data received).
    const arrivals: number[] = [];
    const smtp = await startSmtpServer(0, { delayMs: () => (arrivals.push(performance.now()), 0) });
    const perMinute = 150;
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url }, messages: { perMinute } });
    const { event } = await attendanceGroup(Array.from({ length: 5 }, () => ({})));
    const messageId = ((await sendMessage(await aManager(), composed(event.id))) as { messageId: string }).messageId;
    const began = performance.now();
    try {
      await deliverDueMessages(deliverers);
    } finally {
      await smtp.close();
    }
    const after = arrivals.map((at) => Math.round(at - began));
    console.log(`5 copies at ${perMinute} a minute reached the server after ${after.join(", ")} ms`);
    expect(smtp.messages).toHaveLength(5);
    // Each copy no sooner than its slot: the n-th (from 0) n × 400 ms after the round began.
    after.forEach((ms, n) => expect(ms, `copy ${n + 1}`).toBeGreaterThanOrEqual(n * (60_000 / perMinute)));
    expect([...(await copiesOf(messageId)).values()].every((copy) => copy.status === "sent")).toBe(true);
  });

  it("leaves a copy queued, not sending, while it waits for its slot", async () => {
    const smtp = await startSmtpServer();
    // One each two seconds: the second copy waits that long after the first's slot (however long its send took).
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url }, messages: { perMinute: 30 } });
    const { event } = await attendanceGroup([{ email: "first@example.com" }, { email: "second@example.com" }]);
    const messageId = ((await sendMessage(await aManager(), composed(event.id))) as { messageId: string }).messageId;
    try {
      const round = deliverDueMessages(deliverers);
      const first = await smtp.waitForMessage(() => true, 5_000);
      await sleep(400);
      const waiting = [...(await copiesOf(messageId)).values()].find((copy) => copy.email !== recipients(first))!;
      // A process stopped now has sent nothing of it: after a restart it is sent, not "interrupted".
      expect(waiting.status).toBe("queued");
      await round;
    } finally {
      await smtp.close();
    }
    expect(smtp.messages).toHaveLength(2);
  });

  it("does not send a copy to a member suspended after the message was sent", async () => {
    const smtp = await startSmtpServer();
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url }, messages: unpaced });
    const { event, members } = await attendanceGroup([{ email: "later-suspended@example.com" }]);
    const messageId = ((await sendMessage(await aManager(), composed(event.id))) as { messageId: string }).messageId;
    await db().update(profiles).set({ banned: true }).where(eq(profiles.id, members[0]!.id));
    try {
      await deliverDueMessages(deliverers);
    } finally {
      await smtp.close();
    }
    expect(smtp.messages).toHaveLength(0);
    expect((await copiesOf(messageId)).get("later-suspended@example.com")).toMatchObject({
      status: "left-out",
      reason: COPY_REASONS.suspended,
    });
  });

  it("marks interrupted, and does not send, a copy an earlier attempt left sending", async () => {
    const smtp = await startSmtpServer();
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url }, messages: unpaced });
    const { event } = await attendanceGroup([{ email: "maybe@example.com" }]);
    const messageId = ((await sendMessage(await aManager(), composed(event.id))) as { messageId: string }).messageId;
    // What a process killed while the mail server had the copy leaves behind.
    await db()
      .update(clubMessageRecipients)
      .set({ status: "sending" })
      .where(eq(clubMessageRecipients.messageId, messageId));
    try {
      await deliverDueMessages(deliverers);
    } finally {
      await smtp.close();
    }
    expect(smtp.messages).toHaveLength(0);
    expect((await copiesOf(messageId)).get("maybe@example.com")).toMatchObject({
      status: "interrupted",
      reason: COPY_REASONS.interrupted,
      sentAt: null,
    });
  });
});

describe("a manager's discard and a stop while a copy waits for its turn", () => {
  it("does not send a copy discarded on /outbox while it waited for its turn", async () => {
    const smtp = await startSmtpServer();
    // A copy every 4 s: the second waits its turn while the manager discards it.
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url }, messages: { perMinute: 15 } });
    forgetMessagePacing();
    const { event } = await attendanceGroup([
      { email: "discard-first@example.com" },
      { email: "discard-second@example.com" },
    ]);
    const messageId = ((await sendMessage(await aManager(), composed(event.id))) as { messageId: string }).messageId;
    try {
      const round = deliverDueMessages(deliverers);
      const sent = recipients(await smtp.waitForMessage(() => true));
      await sleep(500); // Its deliverer has it now, waiting for its turn.
      const waiting = [...(await copiesOf(messageId)).entries()].find(([email]) => email !== sent)!;
      const [row] = await outboxRowsOf([waiting[1].id]);
      expect(row).toMatchObject({ status: "pending", attempts: 0 });
      expect(await discardMessage(await aManager(), row!.id)).toBe(true);
      await round;
      expect(smtp.messages.map(recipients)).toEqual([sent]);
      // Given back untried: its row stays discarded, not marked sent.
      expect((await outboxRowsOf([waiting[1].id]))[0]).toMatchObject({ status: "discarded", sentAt: null });
      expect((await copiesOf(messageId)).get(waiting[0])).toMatchObject({
        status: "failed",
        reason: DISCARDED_COPY_REASON,
        sentAt: null,
      });
    } finally {
      await smtp.close();
    }
  });

  it("gives a copy waiting for its turn back untried when the site stops, without waiting the turn out", async () => {
    const smtp = await startSmtpServer();
    // One copy a minute: the second's turn is a minute away when the worker is stopped.
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url }, messages: { perMinute: 1 } });
    forgetMessagePacing(); // The first copy goes at once, whatever this file sent before.
    const { event } = await attendanceGroup([{ email: "now@example.com" }, { email: "later@example.com" }]);
    const messageId = ((await sendMessage(await aManager(), composed(event.id))) as { messageId: string }).messageId;
    const worker = startOutboxWorker(deliverers, 50);
    try {
      const sent = recipients(await smtp.waitForMessage(() => true));
      await sleep(300); // The second copy is waiting for its turn.
      const began = performance.now();
      await worker.stop();
      expect(performance.now() - began).toBeLessThan(3_000);
      const [waiting, copy] = [...(await copiesOf(messageId)).entries()].find(([email]) => email !== sent)!;
      expect(copy).toMatchObject({ status: "queued", sentAt: null });
      const [row] = await outboxRowsOf([copy.id]);
      // Given back as it was: not tried, so no attempt counted, and free for the next start.
      expect(row).toMatchObject({ status: "pending", attempts: 0, leasedBy: null });
      expect(smtp.messages.map(recipients)).toEqual([sent]);
      expect(waiting).not.toBe(sent);
    } finally {
      await worker.stop();
      await smtp.close();
    }
  });
});

describe("a mail server that hangs up without answering", () => {
  /**
   * Sends a message to `email` alone through a server that holds it (its data or its recipient, by
   * `smtpOptions`), hangs the server up once `held` resolves, and gives the message's id.
   */
  async function hungUpOn(
    email: string,
    smtpOptions: Parameters<typeof startSmtpServer>[1],
    held: (smtp: Awaited<ReturnType<typeof startSmtpServer>>) => Promise<void>,
  ) {
    const smtp = await startSmtpServer(0, smtpOptions);
    overrideConfig({
      mail: { ...original.mail, smtpUrl: smtp.url },
      messages: unpaced,
      outbox: { ...original.outbox, retryBaseMs: 100 },
    });
    const { event } = await attendanceGroup([{ email }]);
    const messageId = ((await sendMessage(await aManager(), composed(event.id))) as { messageId: string }).messageId;
    const round = deliverDueMessages(deliverers);
    await held(smtp);
    smtp.hangUp();
    await round;
    await smtp.close();
    return messageId;
  }

  /** Who a mail server that answers receives on the outbox's next round, after the retry's wait. */
  async function nextRoundOnAWorkingServer() {
    const next = await startSmtpServer();
    overrideConfig({ mail: { ...original.mail, smtpUrl: next.url } });
    try {
      await sleep(150);
      await deliverDueMessages(deliverers);
    } finally {
      await next.close();
    }
    return next.messages.map(recipients);
  }

  it("marks interrupted, and never sends again, a copy the server took whole and then hung up on", async () => {
    // No answer to the message it was given.
    const messageId = await hungUpOn(
      "taken@example.com",
      { holdData: (mail) => recipients(mail) === "taken@example.com" },
      (smtp) => smtp.waitForDataHeld(),
    );
    expect((await copiesOf(messageId)).get("taken@example.com")).toMatchObject({
      status: "interrupted",
      reason: COPY_REASONS.unanswered,
      sentAt: null,
    });
    // Nothing is tried again, on a server that would answer.
    expect(await nextRoundOnAWorkingServer()).toEqual([]);
    expect((await copiesOf(messageId)).get("taken@example.com")!.status).toBe("interrupted");
  });

  it("sends again a copy whose connection was lost before the message was handed over", async () => {
    // While the envelope was still being agreed: no message went over.
    const messageId = await hungUpOn(
      "early@example.com",
      { holdRecipient: (address) => address === "early@example.com" },
      (smtp) => smtp.waitForRecipientsHeld(),
    );
    expect((await copiesOf(messageId)).get("early@example.com")!.status).toBe("queued");
    expect(await nextRoundOnAWorkingServer()).toEqual(["early@example.com"]);
    expect((await copiesOf(messageId)).get("early@example.com")).toMatchObject({ status: "sent", reason: null });
  });

  it("fails, with the discard's reason, a copy discarded while it was with the mail server and then not sent", async () => {
    const messageId = await hungUpOn(
      "dropped@example.com",
      { holdRecipient: (address) => address === "dropped@example.com" },
      async (smtp) => {
        await smtp.waitForRecipientsHeld();
        // The manager discards it on /outbox while the mail server has it.
        const [row] = await db().select().from(outbox).where(eq(outbox.kind, "club-message"));
        expect(await discardMessage(await aManager(), row!.id)).toBe(true);
      },
    );
    // Not left queued for a retry that will not come: Notices do not say "Being emailed" forever.
    expect((await copiesOf(messageId)).get("dropped@example.com")).toMatchObject({
      status: "failed",
      reason: DISCARDED_COPY_REASON,
    });
    expect(await nextRoundOnAWorkingServer()).toEqual([]);
  });
});

describe("a slow mail server and a pile of copies", () => {
  it("sends a sign-in code at once while 500 copies wait on a server that takes seconds for each", async () => {
    const subject = "Muster at the lodge";
    const smtp = await startSmtpServer(0, { delayMs: (mail) => (mail.subject === subject ? 3_000 : 0) });
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url }, messages: unpaced });
    const { event } = await attendanceGroup(Array.from({ length: 500 }, () => ({})));
    const sending = performance.now();
    const outcome = await sendMessage(await aManager(), composed(event.id, { subject, body: "Dear {first name}," }));
    console.log(`500 copies written in ${Math.round(performance.now() - sending)} ms`);
    expect(outcome).toMatchObject({ outcome: "sent", queued: 500 });
    const messageId = (outcome as { messageId: string }).messageId;
    const worker = startOutboxWorker(deliverers, 100);
    try {
      // The copies' lane is with the slow server.
      const deadline = Date.now() + 5_000;
      while (![...(await copiesOf(messageId)).values()].some((copy) => copy.status === "sending")) {
        if (Date.now() > deadline) throw new Error("no copy was being sent within 5 s");
        await sleep(20);
      }
      const began = performance.now();
      await queueEmail(
        db(),
        signInCodeEmail({
          to: "hurried@example.com",
          firstName: "Ada",
          code: "187701",
          link: "http://localhost/auth/email-code",
          expiresS: 600,
        }),
      );
      await smtp.waitForMessage((mail) => mail.subject === "Your Hopewell sign-in code", 5_000);
      const arrivedMs = performance.now() - began;
      console.log(`sign-in code arrived ${Math.round(arrivedMs)} ms after it was queued, behind 500 slow copies`);
      // A round (100 ms) and a send: not the three seconds of even one copy.
      expect(arrivedMs).toBeLessThan(2_000);
      expect(smtp.messages.filter((mail) => mail.subject === subject)).toHaveLength(0);
    } finally {
      // Closing the server ends the copy's attempt in flight, so the worker stops at once.
      await smtp.close();
      await worker.stop();
    }
  }, 30_000);
});
