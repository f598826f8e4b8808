import { setTimeout as sleep } from "node:timers/promises";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { COPY_REASONS, forgetMessagePacing } from "~/features/messages/deliver.server";
import { sendMessage } from "~/features/messages/send.server";
import { overrideConfig } from "~/platform/config.server";
import { clubMessageRecipients, outbox, profiles } from "~/platform/db/schema";
import { signInCodeEmail } from "~/platform/mail/account-templates.server";
import { DISCARDED_COPY_REASON, discardMessage, retryMessage } from "~/platform/outbox/outbox-view.server";
import { MAX_ATTEMPTS, queueEmail } from "~/platform/outbox/outbox.server";
import { deliverDueMessages, startOutboxWorker } from "~/platform/outbox/outbox-worker.server";
import { withTestDatabase } from "../helpers/db";
import { recipients, startSmtpServer } from "../helpers/smtp";
import { clubMessageFixtures, composed, deliverers, unpaced } from "../helpers/club-messages";

/**
 * The copies of a manager's message on their way through the outbox to a real SMTP server:
 * refusals and retries, pacing, a manager's discard and a stop while a copy waits its turn, a
 * server that hangs up, and a sign-in code that does not wait behind a slow server's pile of
 * copies.
 */
const db = withTestDatabase();
const { original, attendanceGroup, aManager, copiesOf, outboxRowsOf } = clubMessageFixtures(db);

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
