import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config, overrideConfig } from "~/platform/config.server";
import { auditLog, outbox } from "~/platform/db/schema";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { withAppServer } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { postForm } from "../helpers/forms";
import { signedInMember } from "../helpers/members";
import { deliverMailNow } from "../helpers/outbox";
import { recipients, startSmtpServer } from "../helpers/smtp";

const db = withTestDatabase();
const app = withAppServer();

describe("the managers' Outbox page", () => {
  let refusing = true;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const originalMail = config().mail;
  beforeAll(async () => {
    smtp = await startSmtpServer(0, {
      refuse: (address) => (refusing && address === "moved.away@example.com" ? 550 : undefined),
    });
    overrideConfig({ mail: { ...originalMail, smtpUrl: smtp.url } });
  });
  afterAll(async () => {
    overrideConfig({ mail: originalMail });
    await smtp.close();
  });

  const message = (subject: string) => ({
    to: "moved.away@example.com",
    subject,
    text: `Choose a new password: https://hopewell.example/reset-password?token=SECRET-${subject.length}-TOKEN`,
    html: `<p><a href="https://hopewell.example/reset-password?token=SECRET-${subject.length}-TOKEN">Choose a new password</a></p>`,
  });

  it("shows a refused email as failed at once, without its text, and delivers it when retried", async () => {
    const manager = await signedInMember("manager");
    await queueEmail(db(), message("Reset your Hopewell password"));
    await queueEmail(db(), { ...message("For someone else"), to: "still.here@example.com" });
    await deliverMailNow();
    await smtp.waitForMessage((m) => recipients(m).includes("still.here@example.com"));
    const [failed] = await db()
      .select()
      .from(outbox)
      .where(sql`${outbox.payload}->>'to' = 'moved.away@example.com'`);
    expect(failed).toMatchObject({ status: "failed", attempts: 1 });

    const response = await fetch(`${app().url}/outbox`, { headers: { Cookie: manager.cookie } });
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain("<h1");
    expect(page).toContain("Outbox");
    expect(page).toContain("moved.away@example.com");
    expect(page).toContain("Reset your Hopewell password");
    expect(page).toContain("Failed");
    expect(page).toMatch(/550/);
    expect(page).not.toContain("SECRET-");
    expect(page).not.toContain("reset-password?token");
    // Sent messages are not listed.
    expect(page).not.toContain("still.here@example.com");

    // A player cannot see it, nor act on it.
    const player = await signedInMember("player");
    expect(
      (await fetch(`${app().url}/outbox`, { headers: { Cookie: player.cookie }, redirect: "manual" })).headers.get(
        "Location",
      ),
    ).toBe("/");
    expect((await postForm(app().url, "/outbox", { intent: "retry", id: failed!.id }, player.cookie)).status).toBe(403);

    refusing = false;
    const retried = await postForm(app().url, "/outbox", { intent: "retry", id: failed!.id }, manager.cookie);
    expect(retried.status).toBe(200);
    expect(await retried.text()).toContain("The message will be tried again shortly.");
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, manager.id), eq(auditLog.action, "outbox.retry")));
    expect(audit!.details).toMatchObject({ message: failed!.id, kind: "email", status: "failed", attempts: 1 });

    await deliverMailNow();
    const mail = await smtp.waitForMessage((m) => recipients(m).includes("moved.away@example.com"));
    expect(mail.subject).toBe("Reset your Hopewell password");
    const [sent] = await db().select().from(outbox).where(eq(outbox.id, failed!.id));
    expect(sent).toMatchObject({ status: "sent", attempts: 1 });
    expect(await (await fetch(`${app().url}/outbox`, { headers: { Cookie: manager.cookie } })).text()).not.toContain(
      "moved.away@example.com",
    );
  });

  it("discards a message, keeps the row as the record, and audits it", async () => {
    const manager = await signedInMember("manager");
    refusing = true;
    await queueEmail(db(), message("A message nobody will get"));
    await deliverMailNow();
    const [failed] = await db()
      .select()
      .from(outbox)
      .where(sql`${outbox.payload}->>'subject' = 'A message nobody will get'`);
    expect(failed!.status).toBe("failed");
    const response = await postForm(app().url, "/outbox", { intent: "discard", id: failed!.id }, manager.cookie);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("The message was discarded.");
    const [row] = await db().select().from(outbox).where(eq(outbox.id, failed!.id));
    expect(row!.status).toBe("discarded");
    expect(
      await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorId, manager.id), eq(auditLog.action, "outbox.discard"))),
    ).toHaveLength(1);
    // Gone from the list; a second discard, or a made-up id, says so plainly.
    expect((await postForm(app().url, "/outbox", { intent: "discard", id: failed!.id }, manager.cookie)).status).toBe(
      404,
    );
    expect((await postForm(app().url, "/outbox", { intent: "retry", id: "not-an-id" }, manager.cookie)).status).toBe(
      404,
    );
    expect((await postForm(app().url, "/outbox", { intent: "resend-all" }, manager.cookie)).status).toBe(400);
    // With nothing left, the page does not claim that the discarded message was sent.
    const empty = await (await fetch(`${app().url}/outbox`, { headers: { Cookie: manager.cookie } })).text();
    expect(empty).toContain("Nothing is waiting to be sent.");
  });

  it("says a message a worker holds is taken for sending, not when its hold lapses, and offers no Try now for it", async () => {
    const manager = await signedInMember("manager");
    await queueEmail(db(), { ...message("Held by a worker"), to: "held@example.com" });
    // As the worker leaves a message it has claimed: its run time is when the lease lapses.
    await db()
      .update(outbox)
      .set({ leasedBy: 7, runAt: sql`now() + interval '5 minutes'` })
      .where(sql`${outbox.payload}->>'to' = 'held@example.com'`);
    const page = await (await fetch(`${app().url}/outbox`, { headers: { Cookie: manager.cookie } })).text();
    expect(page).toMatch(/held@example\.com[\s\S]*Taken for sending, in turn/);
    expect(page).not.toContain("Try now");
    const [held] = await db()
      .select()
      .from(outbox)
      .where(sql`${outbox.payload}->>'to' = 'held@example.com'`);
    // Freeing it could have another worker send it a second time.
    expect((await postForm(app().url, "/outbox", { intent: "retry", id: held!.id }, manager.cookie)).status).toBe(404);
    expect((await db().select().from(outbox).where(eq(outbox.id, held!.id)))[0]).toMatchObject({ leasedBy: 7 });
    await db()
      .delete(outbox)
      .where(sql`${outbox.payload}->>'to' = 'held@example.com'`);
  });
});
