import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ALWAYS_SENT, CHOICE_OPTIONS, CHOICES_MESSAGES } from "~/features/messages/choices.messages";
import { auditLog, profiles } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { formFieldsOf, postForm } from "../../helpers/forms";
import { readable, visibleText } from "../../helpers/html";
import { signedInMember, messageChoicesOf } from "../../helpers/members";

/** A member's choices of the managers' messages, on their profile, over real HTTP. */
const db = withTestDatabase();
const app = withAppServer();

const profilePage = async (cookie: string) =>
  (await fetch(`${app().url}/profile`, { headers: { Cookie: cookie } })).text();

/** The choices form as the page draws it: its ticked boxes, as a browser would send them. */
function choicesForm(html: string): Record<string, string> {
  const form = /<form[^>]*>(?:(?!<\/form>)[\s\S])*?name="intent" value="choices"[\s\S]*?<\/form>/.exec(html);
  expect(form, "the choices form").not.toBeNull();
  return formFieldsOf(form![0]);
}

describe("a member's choices of the club's messages", () => {
  it("shows both choices ticked at first, explained, and what is always sent, marked so", async () => {
    const member = await signedInMember("player");
    const html = await profilePage(member.cookie);
    const text = visibleText(html);
    expect(text).toContain(CHOICES_MESSAGES.heading);
    for (const option of Object.values(CHOICE_OPTIONS)) {
      expect(text).toContain(option.label);
      expect(text).toContain(option.explanation);
    }
    expect(choicesForm(html)).toEqual({ intent: "choices", news: "on", events: "on" });
    // Each box is named by its label and described by its explanation.
    const box = /<input[^>]*id="choice-news"[^>]*>/.exec(html)![0];
    expect(box).toContain('name="news"');
    expect(box).toContain('aria-describedby="choice-news-explained"');
    expect(html).toContain('<label for="choice-events"');
    const always = /data-testid="always-sent">([\s\S]*?)<\/ul>/.exec(html)![1]!;
    for (const kind of ALWAYS_SENT) expect(visibleText(always)).toContain(`${kind} ${CHOICES_MESSAGES.alwaysMark}`);
    expect(always).not.toContain("<input");
    // The way to the messages themselves.
    expect(html).toContain('href="/notices"');
  });

  it("saves the boxes as ticked, shows them so afterwards, audits each change, and leaves other members alone", async () => {
    const member = await signedInMember("player");
    const other = await signedInMember("player");
    const saved = await postForm(app().url, "/profile", { intent: "choices", news: "on" }, member.cookie);
    expect(saved.status).toBe(200);
    const answer = await saved.text();
    expect(readable(answer)).toContain(CHOICES_MESSAGES.saved);
    expect(await messageChoicesOf(member.id)).toEqual({ news: true, events: false });
    expect(await messageChoicesOf(other.id)).toEqual({ news: true, events: true });
    expect(choicesForm(await profilePage(member.cookie))).toEqual({ intent: "choices", news: "on" });

    // Nothing ticked: both off; then both on again.
    await postForm(app().url, "/profile", { intent: "choices" }, member.cookie);
    expect(await messageChoicesOf(member.id)).toEqual({ news: false, events: false });
    expect(choicesForm(await profilePage(member.cookie))).toEqual({ intent: "choices" });
    await postForm(app().url, "/profile", { intent: "choices", news: "on", events: "on" }, member.cookie);
    expect(await messageChoicesOf(member.id)).toEqual({ news: true, events: true });

    const entries = await db()
      .select({ actorId: auditLog.actorId, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, "message.choices"), eq(auditLog.subjectId, member.id)))
      .orderBy(auditLog.createdAt);
    // One entry for each choice each save changed (the last save changed both at once).
    expect(entries).toHaveLength(4);
    expect(entries.map((entry) => entry.details)).toEqual(
      expect.arrayContaining([
        { choice: "events", receive: false, by: "profile" },
        { choice: "news", receive: false, by: "profile" },
        { choice: "news", receive: true, by: "profile" },
        { choice: "events", receive: true, by: "profile" },
      ]),
    );
    expect(entries.every((entry) => entry.actorId === member.id)).toBe(true);
  });

  it("keeps the profile's other forms working beside it", async () => {
    const member = await signedInMember("player");
    const contact = await postForm(
      app().url,
      "/profile",
      { intent: "contact", name: "Martha Tanner", phone: "(860) 555-0142" },
      member.cookie,
    );
    expect(contact.status).toBe(200);
    const [row] = await db()
      .select({ contact: profiles.emergencyContact })
      .from(profiles)
      .where(eq(profiles.id, member.id));
    expect(row!.contact).toEqual({ name: "Martha Tanner", phone: "+1 860 555 0142" });
    // Saving the contact changed no choice.
    expect(await messageChoicesOf(member.id)).toEqual({ news: true, events: true });
  });
});
