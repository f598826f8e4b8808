import { eq, inArray, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { config, overrideConfig } from "~/server/config.server";
import { outbox } from "~/server/db/schema";
import { deliverDiscord, queueDiscordPost } from "~/server/discord/discord.server";
import { deliverEmail } from "~/server/mail/mailer.server";
import { passwordResetEmail } from "~/server/mail/templates.server";
import { deliverDueMessages, queueEmail, startOutboxWorker, type OutboxRow } from "~/server/outbox/outbox.server";
import { withTestDatabase } from "../helpers/db";
import { recipients, startSmtpServer } from "../helpers/smtp";
import { startWebhookServer } from "../helpers/webhook";

const db = withTestDatabase();
const original = { mail: config().mail, discord: config().discord, outbox: config().outbox };
afterEach(async () => {
  overrideConfig(original);
  // What one test leaves waiting must not reach the next test's servers.
  await db().delete(outbox);
});

const email = (to: string, subject: string) => ({ to, subject, text: `${subject} (text)`, html: `<p>${subject}</p>` });

async function queued(subject: string) {
  const [row] = await db().select().from(outbox).where(sql`${outbox.payload}->>'subject' = ${subject}`);
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
      expect(smtp.messages.map(recipients).sort()).toEqual(["reader1@example.com", "reader2@example.com", "reader3@example.com"]);
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

  it("keeps one recipient's emails in order behind a temporary refusal (451), without holding back others", async () => {
    let refusals = 1;
    const smtp = await startSmtpServer(0, { refuse: (address) => (address === "busy@example.com" && refusals-- > 0 ? 451 : undefined) });
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
    overrideConfig({ mail: { ...original.mail, smtpUrl: `smtp://127.0.0.1:${port}` }, outbox: { ...original.outbox, retryBaseMs: 100 } });
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
      expect(waiting.every((row) => row.status === "pending" && /ECONNREFUSED|connect/i.test(row.lastError ?? ""))).toBe(true);

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
    overrideConfig({ discord: { ...original.discord, webhookUrl: hook.url }, outbox: { ...original.outbox, retryBaseMs: 50 } });
    try {
      const content = Array.from({ length: 3 }, (_, i) => `Part ${i + 1}: ${"news ".repeat(390)}`).join("\n\n");
      await queueDiscordPost(db(), content);
      const end = Date.now() + 10_000;
      while (hook.accepted.length < 3 && Date.now() < end) {
        await deliverDueMessages({ discord: deliverDiscord });
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      expect(hook.requests.map((r) => String(r.body.content).slice(0, 7))).toEqual(["Part 1:", "Part 1:", "Part 2:", "Part 3:"]);
      const rows = await db().select().from(outbox).where(eq(outbox.kind, "discord"));
      expect(rows.map((row) => [row.status, row.attempts]).sort()).toEqual([["sent", 1], ["sent", 1], ["sent", 2]]);
      await db().delete(outbox).where(inArray(outbox.id, rows.map((row) => row.id)));
    } finally {
      await hook.close();
    }
  });
});

describe("the outbox, when a server hangs", () => {
  it("gives up on an SMTP server that never greets within seconds, and sends the message once the server answers", async () => {
    let hanging = true;
    const smtp = await startSmtpServer(0, { hang: () => hanging });
    overrideConfig({ mail: { ...original.mail, smtpUrl: smtp.url } });
    try {
      await queueEmail(db(), passwordResetEmail({ to: "waiting@example.com", firstName: "Ada", link: "http://localhost/reset-password/abc" }));
      const began = performance.now();
      await deliverDueMessages({ email: deliverEmail });
      const tookMs = performance.now() - began;
      expect(smtp.held).toBe(1);
      // The attempt ends on the greeting timeout (10 s), not nodemailer's defaults (30 s to greet, 10 min of silence).
      expect(tookMs).toBeLessThan(15_000);
      const row = await queued("Reset your Hopewell password");
      expect(row).toMatchObject({ status: "pending", attempts: 1 });
      expect(row.lastError).toMatch(/greeting/i);

      // Nothing lost: the message the timed-out attempt held is sent on its retry.
      hanging = false;
      await db().update(outbox).set({ runAt: sql`now()` }).where(eq(outbox.id, row.id));
      await deliverDueMessages({ email: deliverEmail });
      expect(smtp.messages.map(recipients)).toEqual(["waiting@example.com"]);
      expect(await queued("Reset your Hopewell password")).toMatchObject({ status: "sent", attempts: 2 });
    } finally {
      await smtp.close();
    }
  }, 25_000);
});
