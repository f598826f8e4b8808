import { randomUUID } from "node:crypto";
import { count, eq, sql } from "drizzle-orm";
import { describe, expect, it, onTestFinished } from "vitest";
import { AUDIENCES, MESSAGES_MESSAGES } from "~/features/messages/messages.form";
import { LEFT_OUT_REASON } from "~/features/messages/send.server";
import { config, overrideConfig } from "~/platform/config.server";
import { attendanceValues, createEvent, createProfile } from "~/platform/db/factories";
import { clubMessageRecipients, clubMessages, eventAttendance, outbox } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { formFieldsOf, postForm } from "../../helpers/forms";
import { readable, visibleText } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();
const app = withAppServer();
const COMPOSE = "/tools/messages/new";

/** An event whose attendance list holds these members (a group the test alone fills). */
async function eventWithList(members: { firstName: string; lastName: string; eventEmails?: boolean }[]) {
  const event = await createEvent(db(), { title: `Muster ${randomUUID().slice(0, 6)}`, date: "2027-03-14" });
  const profiles = [];
  for (const member of members) {
    const profile = await createProfile(db(), { role: "player", ...member });
    await db().insert(eventAttendance).values(attendanceValues(profile.id, event.id));
    profiles.push(profile);
  }
  return { event, profiles };
}

/** The compose page's form as a browser would send it, opened by `cookie`. */
async function openedForm(cookie: string): Promise<Record<string, string>> {
  const response = await fetch(`${app().url}${COMPOSE}`, { headers: { Cookie: cookie } });
  expect(response.status).toBe(200);
  return formFieldsOf(await response.text());
}

const press = (fields: Record<string, string>, cookie: string) => postForm(app().url, COMPOSE, fields, cookie);

async function messagesWithKey(key: string) {
  return db().select().from(clubMessages).where(eq(clubMessages.submissionKey, key));
}

async function totals() {
  const [messages] = await db().select({ n: count() }).from(clubMessages);
  const [copies] = await db().select({ n: count() }).from(clubMessageRecipients);
  const [rows] = await db().select({ n: count() }).from(outbox).where(eq(outbox.kind, "club-message"));
  return { messages: messages!.n, copies: copies!.n, outbox: rows!.n };
}

describe("the compose page", () => {
  it("previews the group by name and the email as its first member reads it, then sends once", async () => {
    const manager = await signedInMember("manager");
    const { event, profiles } = await eventWithList([
      { firstName: "Abigail", lastName: "Thorne" },
      { firstName: "Cyrus", lastName: "Vance", eventEmails: false },
      { firstName: "Bea", lastName: "Ulrich" },
    ]);
    const opened = await openedForm(manager.cookie);
    expect(opened.submissionKey).toMatch(/^[0-9a-f-]{36}$/);
    // No Discord webhook is configured here, so the box is not offered.
    expect(opened).not.toHaveProperty("discord");
    const typed = {
      ...opened,
      audience: "attendance",
      eventId: event.id,
      subject: "Muster for {first name}",
      body: "Dear {first name} {last name},\n\nBring *lanterns* <script>alert(1)</script>.",
    };

    const preview = await press({ ...typed, intent: "preview" }, manager.cookie);
    expect(preview.status).toBe(200);
    const html = await preview.text();
    const text = visibleText(html);
    expect(text).toContain(`${AUDIENCES.attendance.label}: ${event.title}`);
    expect(text).toContain("2 members will receive it; 1 left out by their choices.");
    // Named, in the group's order (last names), with who is left out and why.
    expect(text).toMatch(/Abigail Thorne\s+Bea Ulrich/);
    expect(text).toContain(`Cyrus Vance: ${LEFT_OUT_REASON.events}`);
    expect(text).toContain("The email as Abigail Thorne will read it");
    expect(text).toContain("Muster for Abigail");
    // The HTML part's body in the page: formatted, the member's name filled in, the rest inert.
    expect(html).toMatch(
      /<h3>Muster for Abigail<\/h3>\s*<p>Dear Abigail Thorne,<\/p>\s*<p>Bring <em>lanterns<\/em> &lt;script&gt;alert\(1\)&lt;\/script&gt;\.<\/p>/,
    );
    expect(html).not.toContain("<script>alert(1)");
    // The body part only: the page is one document.
    expect(html.match(/<body[\s>]/g)).toHaveLength(1);
    expect(html).not.toMatch(/<[^>]+ style="/);
    // The plain-text part as it is sent, unsubscribe link and all.
    expect(readable(html)).toMatch(
      /<pre[^>]*>Dear Abigail Thorne,\s+Bring \*lanterns\* <script>alert\(1\)<\/script>\.\s+--\s+You receive this/,
    );
    // Abigail's unsubscribe address, with a token that is no one's: the preview gives the manager no
    // link that changes her choice.
    const previewLink = /href="([^"]*\/unsubscribe\?[^"]*)"/.exec(html)![1]!.replaceAll("&amp;", "&");
    expect(previewLink).toContain(`/unsubscribe?member=${profiles[0]!.id}&choice=events&token=preview`);
    const openedLink = await fetch(previewLink.replace(/^https?:\/\/[^/]+/, app().url));
    expect(openedLink.status).toBe(400);
    // Nothing is written by a preview.
    expect(await totals()).toEqual({ messages: 0, copies: 0, outbox: 0 });

    const previewed = formFieldsOf(html);
    expect(previewed.submissionKey).toBe(opened.submissionKey);
    expect(previewed.subject).toBe(typed.subject);
    expect(previewed.body).toBe(typed.body);
    expect(html).toContain("Send to 2 members");

    const sent = await press({ ...previewed, intent: "send" }, manager.cookie);
    expect(sent.status).toBe(303);
    const record = sent.headers.get("Location")!;
    const [message] = await messagesWithKey(opened.submissionKey!);
    expect(record).toBe(`/tools/messages/${message!.id}?notice=sent`);
    expect(message).toMatchObject({
      subject: typed.subject,
      audience: "attendance",
      eventId: event.id,
      discord: false,
    });
    const copies = await db()
      .select({ userId: clubMessageRecipients.userId, status: clubMessageRecipients.status })
      .from(clubMessageRecipients)
      .where(eq(clubMessageRecipients.messageId, message!.id));
    expect(copies).toHaveLength(3);
    expect(Object.fromEntries(copies.map((copy) => [copy.userId, copy.status]))).toEqual({
      [profiles[0]!.id]: "queued",
      [profiles[1]!.id]: "left-out",
      [profiles[2]!.id]: "queued",
    });
    expect(await totals()).toEqual({ messages: 1, copies: 3, outbox: 2 });
    const landed = await (await fetch(`${app().url}${record}`, { headers: { Cookie: manager.cookie } })).text();
    expect(visibleText(landed)).toContain(MESSAGES_MESSAGES.sent(2, 1));

    // A second press of the same form sends nothing more and lands on the same record.
    const again = await press({ ...previewed, intent: "send" }, manager.cookie);
    expect(again.status).toBe(303);
    expect(again.headers.get("Location")).toBe(`/tools/messages/${message!.id}?notice=already-sent`);
    expect(await totals()).toEqual({ messages: 1, copies: 3, outbox: 2 });
    const secondPage = await (
      await fetch(`${app().url}${again.headers.get("Location")}`, { headers: { Cookie: manager.cookie } })
    ).text();
    expect(visibleText(secondPage)).toContain(MESSAGES_MESSAGES.alreadySent);
  });

  it("sends a test copy to the manager's own address only", async () => {
    const manager = await signedInMember("manager");
    const { event } = await eventWithList([{ firstName: "Dora", lastName: "Wick" }]);
    const before = await totals();
    const fields = {
      ...(await openedForm(manager.cookie)),
      audience: "attendance",
      eventId: event.id,
      subject: "Trial run",
      body: "Hello {first name}.",
      intent: "test",
    };
    const response = await press(fields, manager.cookie);
    expect(response.status).toBe(200);
    expect(visibleText(await response.text())).toContain(MESSAGES_MESSAGES.testSent(manager.email));
    const queued = await db()
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(sql`${outbox.kind} = 'email' and ${outbox.payload}->>'subject' = '[Test] Trial run'`);
    expect(queued.map((row) => row.payload.to)).toEqual([manager.email]);
    expect(String(queued[0]!.payload.text)).toContain(`Hello ${manager.firstName}.`);
    expect(await totals()).toEqual(before);
  });

  it("answers each bad field with its message beside it and sends nothing", async () => {
    const manager = await signedInMember("manager");
    const { event } = await eventWithList([{ firstName: "Ezra", lastName: "Yates" }]);
    const opened = await openedForm(manager.cookie);
    const good = { ...opened, audience: "attendance", eventId: event.id, subject: "Notice", body: "Hello." };
    const before = await totals();
    const refusals: [Record<string, string>, string][] = [
      [{ subject: "Notice\r\nBcc: everyone@example.com" }, MESSAGES_MESSAGES.subject],
      [{ subject: "Notice\nBcc: everyone@example.com" }, MESSAGES_MESSAGES.subject],
      [{ body: "a".repeat(1024 * 1024) }, MESSAGES_MESSAGES.body],
      [{ body: "Dear {nickname}," }, MESSAGES_MESSAGES.unknownField("nickname")],
      [{ subject: "For {Rank}" }, MESSAGES_MESSAGES.unknownField("Rank")],
      [{ eventId: "" }, MESSAGES_MESSAGES.event],
      [{ eventId: randomUUID() }, MESSAGES_MESSAGES.event],
      [{ audience: "everyone" }, MESSAGES_MESSAGES.audience],
    ];
    for (const [change, message] of refusals) {
      for (const intent of ["preview", "send"]) {
        const response = await press({ ...good, ...change, intent }, manager.cookie);
        expect(response.status, `${intent} ${JSON.stringify(change).slice(0, 80)}`).toBe(400);
        const html = await response.text();
        expect(visibleText(html)).toContain(message);
        expect(visibleText(html)).toContain(MESSAGES_MESSAGES.fix);
        // The field is marked, and what was typed comes back (a megabyte too).
        expect(html).toMatch(/aria-invalid="true"/);
        const kept = formFieldsOf(html);
        if (change.body) expect(kept.body).toBe(change.body);
      }
    }
    expect(await totals()).toEqual(before);
  });

  it("refuses to send to nobody, and a group changed since its preview is shown again first", async () => {
    const manager = await signedInMember("manager");
    const empty = await createEvent(db(), { title: "Empty Hall", date: "2027-06-01" });
    const opened = await openedForm(manager.cookie);
    const toNobody = { ...opened, audience: "attendance", eventId: empty.id, subject: "Hello", body: "Anyone?" };
    const preview = await (await press({ ...toNobody, intent: "preview" }, manager.cookie)).text();
    expect(visibleText(preview)).toContain("0 members will receive it");
    expect(preview).not.toContain("Send to 0 members");
    const nobody = await press({ ...formFieldsOf(preview), intent: "send" }, manager.cookie);
    expect(nobody.status).toBe(400);
    expect(visibleText(await nobody.text())).toContain(MESSAGES_MESSAGES.nobody);
    expect(await messagesWithKey(opened.submissionKey!)).toHaveLength(0);

    const { event } = await eventWithList([{ firstName: "Flora", lastName: "Zeller" }]);
    const typed = { ...opened, audience: "attendance", eventId: event.id, subject: "Hello", body: "Hello all." };
    const seen = formFieldsOf(await (await press({ ...typed, intent: "preview" }, manager.cookie)).text());
    // Someone joins the list after the preview: the send shows the group again instead.
    const late = await createProfile(db(), { role: "player", firstName: "Gus", lastName: "Late" });
    await db().insert(eventAttendance).values(attendanceValues(late.id, event.id));
    const changed = await press({ ...seen, intent: "send" }, manager.cookie);
    expect(changed.status).toBe(409);
    const shown = await changed.text();
    expect(visibleText(shown)).toContain(MESSAGES_MESSAGES.changedMeanwhile);
    expect(visibleText(shown)).toContain("Gus Late");
    expect(await messagesWithKey(opened.submissionKey!)).toHaveLength(0);
    // A send never previewed is shown the group first too.
    const unseen = await press({ ...typed, intent: "send" }, manager.cookie);
    expect(unseen.status).toBe(409);
    expect(visibleText(await unseen.text())).toContain(MESSAGES_MESSAGES.checkFirst);
    // Pressed on the new preview, it goes.
    const sent = await press({ ...formFieldsOf(shown), intent: "send" }, manager.cookie);
    expect(sent.status).toBe(303);
    expect(await messagesWithKey(opened.submissionKey!)).toHaveLength(1);
  });

  it("offers the Discord channel only when its webhook is set, and posts there when ticked", async () => {
    const manager = await signedInMember("manager");
    const saved = config().discord;
    onTestFinished(() => overrideConfig({ discord: saved }));
    overrideConfig({
      discord: { webhookUrl: "https://discord.example/api/webhooks/1/x", username: "Hopewell", avatarUrl: undefined },
    });
    const { event } = await eventWithList([{ firstName: "Hal", lastName: "Ives" }]);
    const html = await (await fetch(`${app().url}${COMPOSE}`, { headers: { Cookie: manager.cookie } })).text();
    expect(visibleText(html)).toContain("Also post it to the club's Discord channel");
    const typed = {
      ...formFieldsOf(html),
      audience: "attendance",
      eventId: event.id,
      subject: "Lanterns",
      body: "Bring one, {first name}.",
      discord: "on",
    };
    const seen = formFieldsOf(await (await press({ ...typed, intent: "preview" }, manager.cookie)).text());
    expect(seen.discord).toBe("on");
    expect((await press({ ...seen, intent: "send" }, manager.cookie)).status).toBe(303);
    const [message] = await messagesWithKey(seen.submissionKey!);
    expect(message!.discord).toBe(true);
    const posts = await db()
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(sql`${outbox.kind} = 'discord' and ${outbox.payload}->>'content' like '**Lanterns**%'`);
    expect(posts.map((post) => post.payload.content)).toEqual(["**Lanterns**\n\nBring one, friends."]);
  });

  it("lets no player or cast member in, and leads a manager without a second factor to give one", async () => {
    const before = await totals();
    for (const role of ["player", "cast"] as const) {
      const member = await signedInMember(role);
      for (const path of [COMPOSE, "/tools/messages", `/tools/messages/${randomUUID()}`]) {
        const response = await fetch(`${app().url}${path}`, { headers: { Cookie: member.cookie }, redirect: "manual" });
        expect(response.status, `${role} ${path}`).toBe(302);
        expect(response.headers.get("Location")).toBe("/");
      }
      const post = await press(
        { intent: "send", audience: "all", subject: "Hi", body: "All of you.", submissionKey: randomUUID() },
        member.cookie,
      );
      expect(post.status, role).toBeGreaterThanOrEqual(300);
      expect(post.status, role).not.toBe(303);
    }
    const unproven = await signedInMember("manager", undefined, { secondFactor: false });
    const page = await fetch(`${app().url}${COMPOSE}`, { headers: { Cookie: unproven.cookie }, redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toMatch(/two-factor/);
    expect(await totals()).toEqual(before);
  });

  it("shows managers the Messages tool", async () => {
    const manager = await signedInMember("manager");
    const tools = await (await fetch(`${app().url}/tools`, { headers: { Cookie: manager.cookie } })).text();
    expect(tools).toMatch(/<a[^>]*href="\/tools\/messages"[^>]*><span>Messages<\/span><\/a>/);
  });
});
