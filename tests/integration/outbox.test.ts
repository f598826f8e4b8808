import http from "node:http";
import { eq, inArray, sql } from "drizzle-orm";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { logger } from "~/platform/logger.server";
import { config, overrideConfig } from "~/platform/config.server";
import { outbox } from "~/platform/db/schema";
import { deliverDiscord, queueDiscordPost } from "~/platform/discord/discord.server";
import { signInCodeEmail } from "~/platform/mail/account-templates.server";
import { deliverEmail } from "~/platform/mail/mailer.server";
import { passwordResetEmail } from "~/platform/mail/templates.server";
import { discardMessage } from "~/platform/outbox/outbox-view.server";
import { queueEmail, type OutboxRow } from "~/platform/outbox/outbox.server";
import { deliverDueMessages, startOutboxWorker } from "~/platform/outbox/outbox-worker.server";
import { deliverSms, queueSms } from "~/platform/sms/sms.server";
import { withTestDatabase } from "../helpers/db";
import { createMember } from "../helpers/members";
import { recipients, startSmtpServer } from "../helpers/smtp";
import { startWebhookServer } from "../helpers/webhook";

const db = withTestDatabase();
const original = { mail: config().mail, discord: config().discord, sms: config().sms, outbox: config().outbox };
afterEach(async () => {
  overrideConfig(original);
  // What one test leaves waiting must not reach the next test's servers.
  await db().delete(outbox);
});

const email = (to: string, subject: string) => ({ to, subject, text: `${subject} (text)`, html: `<p>${subject}</p>` });

async function queued(subject: string) {
  const [row] = await db()
    .select()
    .from(outbox)
    .where(sql`${outbox.payload}->>'subject' = ${subject}`);
  return row!;
}

describe("the outbox, with a real SMTP server", () => {
  it("fails a refused recipient (550) at once and delivers the emails queued after it in the same round", async () => {
    const smtp = await startSmtpServer(0, { refuse: (address) => (address === "gone@example.com" ? 550 : undefined) });
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url } });
    try {
      await db().transaction(async (tx) => {
        await queueEmail(tx, email("gone@example.com", "To nobody"));
        for (const n of [1, 2, 3]) await queueEmail(tx, email(`reader${n}@example.com`, `Good news ${n}`));
      });
      await deliverDueMessages({ email: deliverEmail });
      expect(smtp.messages.map(recipients).sort()).toEqual([
        "reader1@example.com",
        "reader2@example.com",
        "reader3@example.com",
      ]);
      const refused = await queued("To nobody");
      expect(refused).toMatchObject({ status: "failed", attempts: 1 });
      expect(refused.lastError).toMatch(/550/);
      for (const n of [1, 2, 3]) expect(await queued(`Good news ${n}`)).toMatchObject({ status: "sent", attempts: 1 });
    } finally {
      await smtp.close();
    }
  });

  it("keeps mail waiting when the server refuses the sender (a setting to fix), instead of failing it", async () => {
    const smtp = await startSmtpServer(0, { refuseSender: 553 });
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url } });
    try {
      await queueEmail(db(), email("patient@example.com", "Sender refused"));
      await deliverDueMessages({ email: deliverEmail });
      const row = await queued("Sender refused");
      expect(row).toMatchObject({ status: "pending", attempts: 1 });
      expect(row.lastError).toMatch(/553/);
      await db().delete(outbox).where(eq(outbox.id, row.id));
    } finally {
      await smtp.close();
    }
  });

  it("keeps mail waiting when the server refuses SMTP_URL's password, and logs an error naming SMTP_URL", async () => {
    // The test server takes no login: any user and password in SMTP_URL is refused (535), as a wrong password is.
    const smtp = await startSmtpServer(0);
    const withLogin = new URL(smtp.url);
    withLogin.username = "site";
    withLogin.password = "wrong-password";
    overrideConfig({ mail: { ...original.mail, smtpUrl: withLogin.toString() } });
    const lines: string[] = [];
    const stream = pino.symbols.streamSym as unknown as symbol;
    const target = logger as unknown as Record<symbol, unknown>;
    const saved = { stream: target[stream], level: logger.level };
    target[stream] = { write: (line: string) => lines.push(line) };
    logger.level = "info";
    try {
      await queueEmail(db(), email("waiting@example.com", "Login refused"));
      await deliverDueMessages({ email: deliverEmail });
      const row = await queued("Login refused");
      expect(row).toMatchObject({ status: "pending", attempts: 1 });
      const logged = lines
        .map((line) => JSON.parse(line) as { level: number; msg: string; setting?: string })
        .find((entry) => entry.msg.startsWith("outbox delivery failed"));
      expect(logged).toMatchObject({
        level: 50,
        setting: "SMTP_URL",
        msg: "outbox delivery failed: SMTP_URL needs fixing; the message waits",
      });
      expect(lines.join("\n")).not.toContain("wrong-password");
      expect(row.lastError).toContain("Fix SMTP_URL and restart");
      await db().delete(outbox).where(eq(outbox.id, row.id));
    } finally {
      target[stream] = saved.stream;
      logger.level = saved.level;
      await smtp.close();
    }
  });

  it("keeps one recipient's emails in order behind a temporary refusal (451), without holding back others", async () => {
    let refusals = 1;
    const smtp = await startSmtpServer(0, {
      refuse: (address) => (address === "busy@example.com" && refusals-- > 0 ? 451 : undefined),
    });
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url }, outbox: { ...original.outbox, retryBaseMs: 300 } });
    try {
      await db().transaction(async (tx) => {
        await queueEmail(tx, email("busy@example.com", "Busy first"));
        await queueEmail(tx, email("busy@example.com", "Busy second"));
        await queueEmail(tx, email("free@example.com", "Free first"));
      });
      await deliverDueMessages({ email: deliverEmail });
      expect(smtp.messages.map((m) => m.subject)).toEqual(["Free first"]);
      expect(await queued("Busy first")).toMatchObject({ status: "pending", attempts: 1 });
      // Held back, not tried: no attempt is counted for it.
      expect(await queued("Busy second")).toMatchObject({ status: "pending", attempts: 0 });

      await new Promise((resolve) => setTimeout(resolve, 400));
      await deliverDueMessages({ email: deliverEmail });
      expect(smtp.messages.map((m) => m.subject)).toEqual(["Free first", "Busy first", "Busy second"]);
      expect(await queued("Busy first")).toMatchObject({ status: "sent", attempts: 2 });
      expect(await queued("Busy second")).toMatchObject({ status: "sent", attempts: 1 });
    } finally {
      await smtp.close();
    }
  });

  it("delivers everything once the SMTP server is back, counting only real tries", async () => {
    let smtp = await startSmtpServer();
    const port = smtp.port;
    await smtp.close();
    overrideConfig({
      mail: { ...original.mail, smtpUrl: `smtp://127.0.0.1:${port}` },
      outbox: { ...original.outbox, retryBaseMs: 100 },
    });
    const tries = new Map<string, number>();
    const counting = async (row: OutboxRow) => {
      tries.set(row.id, (tries.get(row.id) ?? 0) + 1);
      await deliverEmail(row);
    };
    await db().transaction(async (tx) => {
      for (const n of [1, 2, 3]) await queueEmail(tx, email(`outage${n}@example.com`, `Outage ${n}`));
    });
    const worker = startOutboxWorker({ email: counting }, 50);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const waiting = await Promise.all([1, 2, 3].map((n) => queued(`Outage ${n}`)));
      expect(
        waiting.every((row) => row.status === "pending" && /ECONNREFUSED|connect/i.test(row.lastError ?? "")),
      ).toBe(true);

      smtp = await startSmtpServer(port);
      for (const n of [1, 2, 3]) await smtp.waitForMessage((m) => m.subject === `Outage ${n}`, 20_000);
    } finally {
      await worker.stop();
      await smtp.close();
    }
    const rows = await Promise.all([1, 2, 3].map((n) => queued(`Outage ${n}`)));
    for (const row of rows) {
      expect(row.status).toBe("sent");
      expect(row.attempts).toBeGreaterThan(1);
      expect(row.attempts).toBe(tries.get(row.id));
    }
  }, 40_000);
});

describe("the outbox, with a chat webhook", () => {
  it("posts a notice's chunks in order when the first chunk has to be retried", async () => {
    const hook = await startWebhookServer((i) => (i === 0 ? { status: 502 } : { status: 204 }));
    overrideConfig({
      discord: { ...original.discord, webhookUrl: hook.url },
      outbox: { ...original.outbox, retryBaseMs: 50 },
    });
    try {
      const content = Array.from({ length: 3 }, (_, i) => `Part ${i + 1}: ${"news ".repeat(390)}`).join("\n\n");
      await queueDiscordPost(db(), content);
      const end = Date.now() + 10_000;
      while (hook.accepted.length < 3 && Date.now() < end) {
        await deliverDueMessages({ discord: deliverDiscord });
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      expect(hook.requests.map((r) => String(r.body.content).slice(0, 7))).toEqual([
        "Part 1:",
        "Part 1:",
        "Part 2:",
        "Part 3:",
      ]);
      const rows = await db().select().from(outbox).where(eq(outbox.kind, "discord"));
      expect(rows.map((row) => [row.status, row.attempts]).sort()).toEqual([
        ["sent", 1],
        ["sent", 1],
        ["sent", 2],
      ]);
      await db()
        .delete(outbox)
        .where(
          inArray(
            outbox.id,
            rows.map((row) => row.id),
          ),
        );
    } finally {
      await hook.close();
    }
  });
});

/** Bulk mail as the costume reminders queue it: nobody waits for it on a page. */
const reminder = (n: number) => email(`settler${n}@example.com`, `Your costume photo is due (${n})`);
const signInCode = (to: string) =>
  signInCodeEmail({ to, firstName: "Ada", code: "187701", link: "http://localhost/auth/email-code", expiresS: 600 });

/** Waits until `found` returns something, or fails after `timeoutMs`. */
async function waitUntil<T>(
  found: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the outbox, when a server hangs or mail piles up", () => {
  // One round meets both hung servers: its lanes run side by side, so both timeouts (10 s each,
  // fixed in the deliverers) expire together rather than one after the other.
  it("gives up on an SMTP server that never greets and a text gateway that never answers within seconds, and sends both on their retry", async () => {
    let hanging = true;
    const smtp = await startSmtpServer(0, { hang: () => hanging });
    const received: string[] = [];
    const gateway = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        if (hanging) return; // Never answers.
        received.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
    overrideConfig({
      mail: { ...original.mail, smtpUrl: smtp.url },
      sms: { webhookUrl: `http://127.0.0.1:${(gateway.address() as { port: number }).port}/send`, token: undefined },
    });
    try {
      await queueEmail(
        db(),
        passwordResetEmail({
          to: "waiting@example.com",
          firstName: "Ada",
          link: "http://localhost/reset-password/abc",
        }),
      );
      await queueSms(db(), {
        to: "+18605550177",
        text: "Hopewell: 187702 is your sign-in code",
        label: "Sign-in code",
      });
      const began = performance.now();
      await deliverDueMessages({ email: deliverEmail, sms: deliverSms });
      const tookMs = performance.now() - began;
      expect(smtp.held).toBe(1);
      // The attempts end on the deliverers' timeouts (10 s), not nodemailer's defaults (30 s to
      // greet, 10 min of silence) nor fetch's (none).
      expect(tookMs).toBeLessThan(15_000);
      const row = await queued("Reset your Hopewell password");
      expect(row).toMatchObject({ status: "pending", attempts: 1 });
      expect(row.lastError).toMatch(/greeting/i);
      const [waiting] = await db().select().from(outbox).where(eq(outbox.kind, "sms"));
      expect(waiting).toMatchObject({ status: "pending", attempts: 1 });
      expect(waiting!.lastError).toMatch(/could not be reached \(TimeoutError\)/);

      // Nothing lost: what the timed-out attempts held is sent on their retry.
      hanging = false;
      await db()
        .update(outbox)
        .set({ runAt: sql`now()` })
        .where(inArray(outbox.id, [row.id, waiting!.id]));
      await deliverDueMessages({ email: deliverEmail, sms: deliverSms });
      expect(smtp.messages.map(recipients)).toEqual(["waiting@example.com"]);
      expect(await queued("Reset your Hopewell password")).toMatchObject({ status: "sent", attempts: 2 });
      expect(received).toHaveLength(1);
      const [sent] = await db().select().from(outbox).where(eq(outbox.kind, "sms"));
      expect(sent).toMatchObject({ status: "sent", attempts: 2 });
    } finally {
      await smtp.close();
      gateway.closeAllConnections();
      await new Promise((resolve) => gateway.close(resolve));
    }
  }, 25_000);

  it("texts a sign-in code at once while the SMTP server hangs with mail queued before it", async () => {
    const smtp = await startSmtpServer(0, { hang: () => true });
    const gateway = await startWebhookServer();
    overrideConfig({
      mail: { ...original.mail, smtpUrl: smtp.url },
      sms: { webhookUrl: gateway.url, token: undefined },
    });
    await db().transaction(async (tx) => {
      for (let n = 1; n <= 8; n++) await queueEmail(tx, reminder(n));
      await queueSms(tx, { to: "+18605550142", text: "Hopewell: 187701 is your sign-in code", label: "Sign-in code" });
    });
    const began = performance.now();
    const worker = startOutboxWorker({ email: deliverEmail, sms: deliverSms }, 100);
    try {
      const text = await waitUntil(() => gateway.accepted[0], 10_000, "the text");
      const arrivedMs = text.at - began;
      console.log(
        `sign-in code texted ${Math.round(arrivedMs)} ms after the worker started, with the SMTP server hanging`,
      );
      // Before the first email's attempt could even time out (10 s): the text waited for no email.
      expect(arrivedMs).toBeLessThan(8_000);
      expect(text.body).toMatchObject({ to: "+18605550142" });
      // Meanwhile the email lane is stuck on the hung server.
      await smtp.waitForHeld(1, 5_000);
      expect(smtp.messages).toHaveLength(0);
    } finally {
      // Closing the hung server ends the attempt in flight, so the worker stops at once.
      await smtp.close();
      await worker.stop();
      await gateway.close();
    }
    const [sms] = await db().select().from(outbox).where(eq(outbox.kind, "sms"));
    expect(sms).toMatchObject({ status: "sent", attempts: 1 });
  }, 30_000);

  it("sends a sign-in code ahead of the bulk mail queued before it", async () => {
    // Each message takes the server 300 ms: eight reminders sent first would keep the code for 2.4 s.
    const smtp = await startSmtpServer(0, { delayMs: 300 });
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url } });
    await db().transaction(async (tx) => {
      for (let n = 1; n <= 8; n++) await queueEmail(tx, reminder(n));
      await queueEmail(tx, signInCode("hurried@example.com"));
    });
    const worker = startOutboxWorker({ email: deliverEmail }, 100);
    try {
      await smtp.waitForMessage((mail) => mail.subject === "Your Hopewell sign-in code", 10_000);
      // At most the reminder that was already on its way went first.
      expect(smtp.messages.findIndex((mail) => mail.subject === "Your Hopewell sign-in code")).toBeLessThanOrEqual(1);
      for (let n = 1; n <= 8; n++)
        await smtp.waitForMessage((mail) => mail.subject === `Your costume photo is due (${n})`, 10_000);
    } finally {
      await worker.stop();
      await smtp.close();
    }
    // The reminders still go out in the order they were queued.
    const reminders = smtp.messages
      .filter((mail) => mail.subject!.startsWith("Your costume photo"))
      .map((mail) => mail.subject);
    expect(reminders).toEqual(Array.from({ length: 8 }, (_, i) => `Your costume photo is due (${i + 1})`));
  }, 30_000);

  it("does not hold a sign-in code back behind bulk mail to the same address that waits for its retry", async () => {
    const smtp = await startSmtpServer();
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url } });
    // The reminder meets a temporary refusal (as a 451 would be); everything else is sent for real.
    const refusingReminders = async (row: OutboxRow) => {
      if (String(row.payload.subject).startsWith("Your costume photo")) throw new Error("451 try again later");
      await deliverEmail(row);
    };
    try {
      await queueEmail(db(), { ...reminder(1), to: "same@example.com" });
      await queueEmail(db(), signInCode("same@example.com"));
      await deliverDueMessages({ email: refusingReminders });
      expect(smtp.messages.map((mail) => mail.subject)).toEqual(["Your Hopewell sign-in code"]);
      expect(await queued("Your costume photo is due (1)")).toMatchObject({ status: "pending", attempts: 1 });
      expect(await queued("Your Hopewell sign-in code")).toMatchObject({ status: "sent", attempts: 1 });
    } finally {
      await smtp.close();
    }
  });

  it("takes back at once what a stopped process had leased, and never what a running worker holds", async () => {
    const smtp = await startSmtpServer();
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url } });
    // A running worker, busy with a message until the test lets it go.
    let letGo = () => {};
    const letGoOf = new Promise<void>((resolve) => (letGo = resolve));
    let busy = () => {};
    const isBusy = new Promise<void>((resolve) => (busy = resolve));
    const slow = async (row: OutboxRow) => {
      busy();
      await letGoOf;
      await deliverEmail(row);
    };
    await queueEmail(db(), email("slow@example.com", "Held by a running worker"));
    const running = startOutboxWorker({ email: slow }, 50);
    await isBusy;
    // What a process that stopped mid-attempt leaves behind: a message leased for five minutes
    // under the key of a worker whose lock nobody holds any more.
    await db()
      .insert(outbox)
      .values({
        kind: "email",
        orderKey: "email:orphan@example.com",
        payload: email("orphan@example.com", "Left by a stopped process"),
        runAt: sql`now() + interval '5 minutes'`,
        leasedBy: 424_242,
      });
    const began = performance.now();
    const other = startOutboxWorker({ email: deliverEmail }, 50);
    try {
      // In the first rounds, not after the five minutes of the lease.
      await smtp.waitForMessage((mail) => mail.subject === "Left by a stopped process", 15_000);
      console.log(
        `a stopped process's message sent ${Math.round(performance.now() - began)} ms after another worker started`,
      );
      // Rounds go on every 50 ms; the running worker's message stays with it all the while.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(smtp.messages.map((mail) => mail.subject)).toEqual(["Left by a stopped process"]);
      expect(await queued("Held by a running worker")).toMatchObject({ status: "pending", attempts: 0 });
      letGo();
      await smtp.waitForMessage((mail) => mail.subject === "Held by a running worker", 5_000);
    } finally {
      letGo();
      await running.stop();
      await other.stop();
      await smtp.close();
    }
    expect(smtp.messages.map((mail) => mail.subject)).toEqual([
      "Left by a stopped process",
      "Held by a running worker",
    ]);
    for (const subject of ["Left by a stopped process", "Held by a running worker"]) {
      expect(await queued(subject)).toMatchObject({ status: "sent", attempts: 1, leasedBy: null });
    }
  });

  it("does not send a message a manager discarded while it waited its turn in a worker's round", async () => {
    const smtp = await startSmtpServer();
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url } });
    const manager = await createMember("manager");
    let letGo = () => {};
    const letGoOf = new Promise<void>((resolve) => (letGo = resolve));
    let busy = () => {};
    const isBusy = new Promise<void>((resolve) => (busy = resolve));
    const slowFirst = async (row: OutboxRow) => {
      if (row.payload.subject === "First in the round") {
        busy();
        await letGoOf;
      }
      await deliverEmail(row);
    };
    await db().transaction(async (tx) => {
      await queueEmail(tx, email("first@example.com", "First in the round"));
      await queueEmail(tx, email("second@example.com", "Discarded while waiting"));
    });
    const worker = startOutboxWorker({ email: slowFirst }, 50);
    try {
      // Both are claimed in one round; the second waits behind the first.
      await isBusy;
      expect(await discardMessage(manager, (await queued("Discarded while waiting")).id)).toBe(true);
      letGo();
      await smtp.waitForMessage((mail) => mail.subject === "First in the round", 5_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      letGo();
      await worker.stop();
      await smtp.close();
    }
    expect(smtp.messages.map((mail) => mail.subject)).toEqual(["First in the round"]);
    expect(await queued("Discarded while waiting")).toMatchObject({ status: "discarded", attempts: 0 });
  });
});
