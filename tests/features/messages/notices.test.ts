import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { NOTICES_MESSAGES } from "~/features/messages/choices.messages";
import { NOTICES_PAGE_SIZE } from "~/features/messages/notices.server";
import type { MessageChoice, RecipientStatus } from "~/game/messages";
import { clubMessageRecipients, clubMessages, profiles } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { visibleText } from "../../helpers/html";
import { createMember, signedInMember } from "../../helpers/members";

/** The member's Notices over real HTTP: their own copies of the managers' messages, as written to them. */
const db = withTestDatabase();
const app = withAppServer();

async function noticesPage(cookie: string, query = "") {
  const response = await fetch(`${app().url}/notices${query}`, { headers: { Cookie: cookie }, redirect: "manual" });
  return { status: response.status, html: await response.text() };
}

/** The notices' subjects in the order the page lists them. */
const subjects = (html: string) =>
  [...html.matchAll(/<h3 id="notice-heading-[^"]+"[^>]*>([^<]*)<\/h3>/g)].map((match) => visibleText(match[1]!).trim());

/** A message written straight to the tables, with a copy for each member given. */
async function message(
  text: { subject: string; body: string; choice?: MessageChoice; at?: Date },
  copies: { userId: string; status?: RecipientStatus; reason?: string | null; sentAt?: Date }[],
) {
  const [row] = await db()
    .insert(clubMessages)
    .values({
      submissionKey: crypto.randomUUID(),
      subject: text.subject,
      body: text.body,
      audience: text.choice === "events" ? "attendance" : "all",
      audienceLabel: text.choice === "events" ? "On the event's attendance list: Muster" : "All members",
      choice: text.choice ?? "news",
      createdAt: text.at ?? new Date(),
    })
    .returning({ id: clubMessages.id });
  if (copies.length > 0)
    await db()
      .insert(clubMessageRecipients)
      .values(copies.map((copy) => ({ messageId: row!.id, status: "sent" as const, ...copy })));
  return row!.id;
}

describe("a member's Notices", () => {
  it("lists only the signed-in member's copies, newest first, each written to them with their own names", async () => {
    const reader = await signedInMember("player");
    const other = await signedInMember("player");
    const day = (n: number) => new Date(Date.UTC(2026, 2, n, 15));
    await message(
      {
        subject: "Muster on the green, {first name}",
        body: "Dear {first name} {last name}, bring **boots**.",
        at: day(1),
      },
      [
        { userId: reader.id, sentAt: day(1) },
        { userId: other.id, sentAt: day(1) },
      ],
    );
    await message(
      {
        subject: "Cabins for the Muster",
        body: "Hello {First Name}, cabins are posted.",
        choice: "events",
        at: day(3),
      },
      [{ userId: reader.id, status: "left-out", reason: "Chose not to receive event messages" }],
    );
    await message({ subject: "Only for the other member", body: "Psst, {first name}.", at: day(2) }, [
      { userId: other.id },
    ]);

    const { status, html } = await noticesPage(reader.cookie);
    expect(status).toBe(200);
    expect(subjects(html)).toEqual(["Cabins for the Muster", `Muster on the green, ${reader.firstName}`]);
    const text = visibleText(html);
    expect(html).toContain(`Dear ${reader.firstName} ${reader.lastName}, bring <strong>boots</strong>.`);
    expect(text).toContain(`Hello ${reader.firstName}, cabins are posted.`);
    expect(text).not.toContain(other.firstName);
    expect(text).not.toContain("Only for the other member");
    // The copy their choices left out is there, and says so; the one emailed says when.
    expect(text).toContain(NOTICES_MESSAGES.notEmailed("events"));
    expect(text).toContain("Not emailed: you chose not to receive messages about events you hold a place at.");
    expect(text).toContain("Emailed Mar 1, 2026, 10:00 AM");
    expect(text).toContain("To: All members");
    expect(text).toContain("2 messages");

    const theirs = await noticesPage(other.cookie);
    expect(subjects(theirs.html)).toEqual(["Only for the other member", `Muster on the green, ${other.firstName}`]);
    expect(visibleText(theirs.html)).toContain(`Psst, ${other.firstName}.`);
  });

  it("fills in a member's name as text, never as markup", async () => {
    const reader = await signedInMember("player");
    await db()
      .update(profiles)
      .set({ firstName: '<img src=x onerror="alert(1)">Ann' })
      .where(eq(profiles.id, reader.id));
    await message({ subject: "For {first name}", body: "Hello {first name}." }, [{ userId: reader.id }]);
    const { html } = await noticesPage(reader.cookie);
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("Hello &lt;img src=x onerror=&quot;alert(1)&quot;&gt;Ann.");
    expect(subjects(html)).toEqual(['For <img src=x onerror="alert(1)">Ann']);
  });

  it("says so while there is nothing, and shows each copy's state once there is", async () => {
    const reader = await signedInMember("player");
    const empty = visibleText((await noticesPage(reader.cookie)).html);
    expect(empty).toContain(NOTICES_MESSAGES.empty);
    expect(empty).not.toContain("Read the message");
    const states: [RecipientStatus, string][] = [
      ["queued", NOTICES_MESSAGES.sending],
      ["failed", NOTICES_MESSAGES.failed],
      ["left-out", "Not emailed: you chose not to receive club news."],
    ];
    for (const [status] of states)
      await message({ subject: `Copy ${status}`, body: "Dear {first name}, the season is set." }, [
        { userId: reader.id, status, reason: status === "left-out" ? "Chose not to receive club news" : null },
      ]);
    const text = visibleText((await noticesPage(reader.cookie)).html);
    expect(text).not.toContain(NOTICES_MESSAGES.empty);
    expect(text).toContain(`Dear ${reader.firstName}, the season is set.`);
    for (const [, said] of states) expect(text).toContain(said);
  });

  it("pages a long list, and is reached from the header and the profile", async () => {
    const reader = await signedInMember("player");
    const start = Date.UTC(2025, 0, 1);
    for (let n = 0; n <= NOTICES_PAGE_SIZE; n++)
      await message({ subject: `Bulletin ${n}`, body: "News.", at: new Date(start + n * 86_400_000) }, [
        { userId: reader.id },
      ]);
    const first = await noticesPage(reader.cookie);
    expect(subjects(first.html)).toHaveLength(NOTICES_PAGE_SIZE);
    expect(subjects(first.html)[0]).toBe(`Bulletin ${NOTICES_PAGE_SIZE}`);
    expect(first.html).toContain("Page 1 of 2");
    const second = await noticesPage(reader.cookie, "?page=1");
    expect(subjects(second.html)).toEqual(["Bulletin 0"]);
    // Every page carries the way here: the header's link, and the profile's own.
    expect(first.html).toMatch(/<a href="\/notices"[^>]*aria-current="page"/);
    const profile = await (await fetch(`${app().url}/profile`, { headers: { Cookie: reader.cookie } })).text();
    expect(profile.match(/href="\/notices"/g)?.length).toBeGreaterThanOrEqual(3);
  });

  it("asks a visitor to sign in", async () => {
    const member = await createMember("player");
    await message({ subject: "Private", body: "For members." }, [{ userId: member.id }]);
    const response = await fetch(`${app().url}/notices`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/auth?redirectTo=%2Fnotices");
  });
});
