import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COPY_REASONS, deliverClubMessage } from "~/features/messages/deliver.server";
import { AUDIENCES, MESSAGES_MESSAGES } from "~/features/messages/messages.form";
import { DISCARDED_REASON } from "~/features/messages/record.server";
import { LEFT_OUT_REASON } from "~/features/messages/send.server";
import { overrideConfig } from "~/platform/config.server";
import { attendanceValues, createEvent, createProfile } from "~/platform/db/factories";
import { clubMessageRecipients, clubMessages, eventAttendance, outbox } from "~/platform/db/schema";
import { deliverDueMessages } from "~/platform/outbox/outbox-worker.server";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { formFieldsOf, postForm } from "../../helpers/forms";
import { visibleText } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";
import { startSmtpServer } from "../../helpers/smtp";

const db = withTestDatabase();
const app = withAppServer();

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  // A mailbox that does not exist is refused for good (550); a busy one asks to be tried later (451).
  smtp = await startSmtpServer(0, {
    refuse: (address) => (address.startsWith("gone.") ? 550 : address.startsWith("busy.") ? 451 : undefined),
  });
  overrideConfig({
    mail: { smtpUrl: smtp.url, from: "Hopewell <test@hopewell.local>" },
    messages: { perMinute: 6000 },
  });
});
afterAll(async () => {
  overrideConfig({ mail: { smtpUrl: undefined, from: "Hopewell <test@hopewell.local>" } });
  await smtp?.close();
});

const deliverCopiesNow = () => deliverDueMessages({ "club-message": deliverClubMessage });

const get = async (path: string, cookie: string) => {
  const response = await fetch(`${app().url}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
  return { status: response.status, html: await response.text() };
};

/** A message sent through the compose page (preview, then send), as a manager does: its id. */
async function sendThroughPage(cookie: string, fields: Record<string, string>): Promise<string> {
  const opened = formFieldsOf((await get("/tools/messages/new", cookie)).html);
  const preview = await postForm(app().url, "/tools/messages/new", { ...opened, ...fields, intent: "preview" }, cookie);
  const sent = await postForm(
    app().url,
    "/tools/messages/new",
    { ...formFieldsOf(await preview.text()), intent: "send" },
    cookie,
  );
  expect(sent.status).toBe(303);
  return /\/tools\/messages\/([0-9a-f-]{36})\?/.exec(sent.headers.get("Location")!)![1]!;
}

/** The member's copy of the message, and its outbox row. */
async function copyOf(messageId: string, userId: string) {
  const [copy] = await db()
    .select()
    .from(clubMessageRecipients)
    .where(sql`${clubMessageRecipients.messageId} = ${messageId} and ${clubMessageRecipients.userId} = ${userId}`);
  const [row] = await db()
    .select()
    .from(outbox)
    .where(sql`${outbox.kind} = 'club-message' and ${outbox.payload}->>'recipientId' = ${copy!.id}`);
  return { copy: copy!, row };
}

/** A recipient's line on the message's page: their name, their copy's state, and why. */
function lineOf(html: string, name: string): string {
  const items = html.split("<li").filter((item) => item.includes(`>${name}</a>`));
  expect(items, name).toHaveLength(1);
  return visibleText(`<li${items[0]!.split("</li>")[0]}`).trim();
}

describe("the record of messages sent", () => {
  it("counts each message's copies and gives every member's state with the reason", async () => {
    const manager = await signedInMember("manager");
    const event = await createEvent(db(), { title: "Harvest Muster", date: "2027-09-18" });
    const member = async (firstName: string, lastName: string, overrides: Record<string, unknown> = {}) => {
      const profile = await createProfile(db(), { role: "player", firstName, lastName, ...overrides });
      await db().insert(eventAttendance).values(attendanceValues(profile.id, event.id));
      return profile;
    };
    const ada = await member("Ada", "Abbott");
    const ben = await member("Ben", "Barlow", { email: `gone.ben.${randomUUID()}@example.com` });
    const cal = await member("Cal", "Carver", { email: `busy.cal.${randomUUID()}@example.com` });
    const dee = await member("Dee", "Dunmore", { email: `busy.dee.${randomUUID()}@example.com` });
    await member("Eve", "Ellery", { eventEmails: false });
    const fay = await member("Fay", "Fenwick");

    const id = await sendThroughPage(manager.cookie, {
      audience: "attendance",
      eventId: event.id,
      subject: "Harvest news for {first name}",
      body: "Dear {first name},\n\nThe *muster* moves to the barn.",
    });
    // Fay's copy was with the mail server when the site stopped (a copy left "sending").
    await db()
      .update(clubMessageRecipients)
      .set({ status: "sending" })
      .where(eq(clubMessageRecipients.id, (await copyOf(id, fay.id)).copy.id));
    await deliverCopiesNow();
    await smtp.waitForMessage((mail) => mail.subject === "Harvest news for Ada");
    expect((await copyOf(id, ada.id)).copy).toMatchObject({ status: "sent", reason: null });
    expect((await copyOf(id, ben.id)).copy.status).toBe("failed");
    expect(smtp.messages.filter((mail) => mail.subject?.startsWith("Harvest news"))).toHaveLength(1);

    const list = await get("/tools/messages", manager.cookie);
    expect(list.status).toBe(200);
    const listed = visibleText(list.html);
    expect(listed).toContain("1 message");
    expect(list.html).toContain(`href="/tools/messages/${id}"`);
    expect(listed).toContain("Harvest news for {first name}");
    expect(listed).toContain(`${manager.firstName} ${manager.lastName}`);
    expect(listed).toContain(`${AUDIENCES.attendance.label}: Harvest Muster`);
    expect(listed).toContain("Sent 1 Waiting 2 Failed 1 Left out 1 Interrupted 1");
    expect(list.html).toContain('href="/tools/messages/new"');

    const first = await get(`/tools/messages/${id}`, manager.cookie);
    expect(first.status).toBe(200);
    const text = visibleText(first.html);
    expect(text).toContain("Sent 1 Waiting 2 Failed 1 Left out 1 Interrupted 1");
    expect(text).toContain("Who it was for (6)");
    expect(text).toContain("On Discord No");
    // The body as members read it, the fields shown as written.
    expect(first.html).toContain("<p>Dear {first name},</p>\n<p>The <em>muster</em> moves to the barn.</p>");
    expect(lineOf(first.html, "Ada Abbott")).toMatch(/^Ada Abbott Sent \w{3} \d/);
    expect(lineOf(first.html, "Ben Barlow")).toMatch(/^Ben Barlow Failed .*550 Mailbox unavailable/);
    expect(lineOf(first.html, "Cal Carver")).toMatch(/^Cal Carver Waiting .*451 Try again later/);
    expect(lineOf(first.html, "Eve Ellery")).toBe(`Eve Ellery Left out ${LEFT_OUT_REASON.events}`);
    expect(lineOf(first.html, "Fay Fenwick")).toBe(`Fay Fenwick Interrupted ${COPY_REASONS.interrupted}`);

    // Cal's retries run out (the outbox gives up at its twelfth attempt); Dee's copy is discarded on the Outbox page.
    await db()
      .update(outbox)
      .set({ attempts: 11, runAt: sql`now()` })
      .where(eq(outbox.id, (await copyOf(id, cal.id)).row!.id));
    const discard = await postForm(
      app().url,
      "/outbox",
      { intent: "discard", id: (await copyOf(id, dee.id)).row!.id },
      manager.cookie,
    );
    expect(discard.status).toBe(200);
    await deliverCopiesNow();
    const gaveUp = await copyOf(id, cal.id);
    // The last try fails the copy too, with the mail server's words.
    expect(gaveUp.copy.status).toBe("failed");
    expect(gaveUp.row).toMatchObject({ status: "failed", attempts: 12 });

    const after = await get(`/tools/messages/${id}`, manager.cookie);
    expect(visibleText(after.html)).toContain("Sent 1 Waiting 0 Failed 3 Left out 1 Interrupted 1");
    expect(lineOf(after.html, "Cal Carver")).toBe(`Cal Carver Failed ${gaveUp.row!.lastError}`);
    expect(gaveUp.row!.lastError).toMatch(/451 Try again later/);
    // Discarding fails the copy itself, so the member's Notices do not say it is being emailed.
    expect(lineOf(after.html, "Dee Dunmore")).toBe(`Dee Dunmore Failed ${DISCARDED_REASON}`);
    expect((await copyOf(id, dee.id)).copy).toMatchObject({ status: "failed", reason: DISCARDED_REASON });
    expect(lineOf(after.html, "Ben Barlow")).toMatch(/550 Mailbox unavailable/);
    expect(visibleText((await get("/tools/messages", manager.cookie)).html)).toContain(
      "Sent 1 Waiting 0 Failed 3 Left out 1 Interrupted 1",
    );
    expect(smtp.messages.filter((mail) => mail.subject?.startsWith("Harvest news"))).toHaveLength(1);
  });

  it("lists the newest first, a page at a time", async () => {
    const manager = await signedInMember("manager");
    const base = Date.parse("2026-01-01T12:00:00Z");
    await db()
      .insert(clubMessages)
      .values(
        Array.from({ length: 30 }, (_, n) => ({
          submissionKey: randomUUID(),
          subject: `Old notice ${n + 1}`,
          body: "Hello.",
          audience: "all" as const,
          audienceLabel: AUDIENCES.all.label,
          choice: "news" as const,
          sentBy: manager.id,
          createdAt: new Date(base + n * 60_000),
        })),
      );
    const first = visibleText((await get("/tools/messages", manager.cookie)).html);
    expect(first).toContain("Page 1 of 2");
    expect(first.indexOf("Old notice 30")).toBeLessThan(first.indexOf("Old notice 29"));
    const second = visibleText((await get("/tools/messages?page=1", manager.cookie)).html);
    expect(second).toContain("Page 2 of 2");
    expect(second).toContain("Old notice 1 ");
    expect(second).not.toContain("Old notice 30");
  });

  it("answers an unknown or malformed message with its 404 page", async () => {
    const manager = await signedInMember("manager");
    for (const id of [randomUUID(), "not-a-message", "1%27%20or%201=1"]) {
      const page = await get(`/tools/messages/${id}`, manager.cookie);
      expect(page.status, id).toBe(404);
      expect(visibleText(page.html)).toContain(MESSAGES_MESSAGES.notFound);
    }
  });
});
