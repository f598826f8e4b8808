import crypto from "node:crypto";
import http from "node:http";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { UNSUBSCRIBE_MESSAGES } from "~/features/messages/choices.messages";
import { unsubscribeToken, unsubscribeUrl } from "~/features/messages/message-email.server";
import type { MessageChoice } from "~/game/messages";
import { auditLog } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { readable, visibleText } from "../../helpers/html";
import { createMember, signedInMember, messageChoicesOf } from "../../helpers/members";

/**
 * The unsubscribe address each managers' message carries, over real HTTP and without signing in:
 * the page a link opens (which changes nothing), the one-click post of a mail program (RFC 8058),
 * and the page's own button.
 */
const db = withTestDatabase();
const app = withAppServer();

/** The link's path and query, as the message's List-Unsubscribe header and footer give it. */
async function linkOf(memberId: string, choice: MessageChoice): Promise<string> {
  const url = new URL(await unsubscribeUrl(memberId, choice));
  return url.pathname + url.search;
}

const addressOf = (query: Record<string, string>) => `/unsubscribe?${new URLSearchParams(query)}`;

/**
 * A mail program's one-click unsubscribe: a POST of `List-Unsubscribe=One-Click` as a form, with
 * no cookie, and only the headers given here (Node's http client adds no Origin of its own).
 */
function onePress(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const body = "List-Unsubscribe=One-Click";
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${app().url}${path}`,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": String(Buffer.byteLength(body)),
          ...headers,
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, body: text }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const unsubscribeAudits = (memberId: string) =>
  db()
    .select({ actorId: auditLog.actorId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.action, "message.choices"), eq(auditLog.subjectId, memberId)));

describe("the unsubscribe link", () => {
  it("asks before it changes anything: opening it (as a link scanner does) leaves the choice on", async () => {
    const member = await createMember("player");
    const link = await linkOf(member.id, "news");
    for (let visit = 0; visit < 2; visit++) {
      const page = await fetch(app().url + link);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toMatch(new RegExp(`<h1[^>]*>${UNSUBSCRIBE_MESSAGES.question("news").replace("?", "\\?")}</h1>`));
      expect(html.match(/<title>[^<]*<\/title>/g)).toEqual([
        `<title>${UNSUBSCRIBE_MESSAGES.question("news")} · Hopewell</title>`,
      ]);
      // Its button posts to this very address, token included.
      const form = /<form[^>]*method="post"[^>]*>/.exec(html)?.[0] ?? "";
      expect(readable(form)).toContain(`action="${link}"`);
      expect(visibleText(html)).toContain(UNSUBSCRIBE_MESSAGES.button);
    }
    const head = await fetch(app().url + link, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await messageChoicesOf(member.id)).toEqual({ news: true, events: true });
    expect(await unsubscribeAudits(member.id)).toEqual([]);
    const events = await (await fetch(app().url + (await linkOf(member.id, "events")))).text();
    expect(visibleText(events)).toContain(UNSUBSCRIBE_MESSAGES.question("events"));
  });

  it("switches off that member's choice alone on a mail program's one-click post, with no cookie and no Origin", async () => {
    const member = await createMember("player");
    const other = await createMember("player");
    const link = await linkOf(member.id, "news");
    const answer = await onePress(link);
    expect(answer.status).toBe(200);
    expect(visibleText(answer.body)).toContain(
      "You will no longer receive club news. You can change this on your profile.",
    );
    expect(await messageChoicesOf(member.id)).toEqual({ news: false, events: true });
    expect(await messageChoicesOf(other.id)).toEqual({ news: true, events: true });
    expect(await unsubscribeAudits(member.id)).toEqual([
      { actorId: null, details: { choice: "news", by: "unsubscribe link" } },
    ]);

    // Again: the same answer, nothing more changed or recorded.
    const again = await onePress(link);
    expect(again.status).toBe(200);
    expect(visibleText(again.body)).toContain(UNSUBSCRIBE_MESSAGES.done("news"));
    expect(await messageChoicesOf(member.id)).toEqual({ news: false, events: true });
    expect(await unsubscribeAudits(member.id)).toHaveLength(1);
  });

  it("is in the managers' audit log as done by the unsubscribe link, naming the member and the choice", async () => {
    const member = await createMember("player", { firstName: "Orla", lastName: "Quill" });
    expect((await onePress(await linkOf(member.id, "events"))).status).toBe(200);
    const manager = await signedInMember("manager");
    const html = await (await fetch(`${app().url}/tools?tab=audit`, { headers: { Cookie: manager.cookie } })).text();
    const text = visibleText(html);
    expect(text).toContain("An unsubscribe link changed the messages received by Orla Quill");
    expect(text).toMatch(/Orla Quill .{0,40}· event messages off/);
  });

  it("takes the one-click post from a mail program's own site (another Origin), and the page's own button", async () => {
    const member = await createMember("player");
    const foreign = await onePress(await linkOf(member.id, "events"), { Origin: "https://mail.example.net" });
    expect(foreign.status).toBe(200);
    expect(visibleText(foreign.body)).toContain(UNSUBSCRIBE_MESSAGES.done("events"));
    expect(await messageChoicesOf(member.id)).toEqual({ news: true, events: false });

    // The page's button: the form as the page draws it, posted from the page.
    const link = await linkOf(member.id, "news");
    const html = await (await fetch(app().url + link)).text();
    const action = readable(/<form[^>]*action="([^"]+)"[^>]*method="post"/.exec(html)![1]!);
    const pressed = await postForm(app().url, action, { "List-Unsubscribe": "One-Click" });
    expect(pressed.status).toBe(200);
    const done = await pressed.text();
    expect(visibleText(done)).toContain(UNSUBSCRIBE_MESSAGES.done("news"));
    // Titled as what happened, once.
    expect(done.match(/<title>[^<]*<\/title>/g)).toEqual([
      `<title>${UNSUBSCRIBE_MESSAGES.doneHeading} · Hopewell</title>`,
    ]);
    expect(await messageChoicesOf(member.id)).toEqual({ news: false, events: false });
  });

  it("refuses a tampered token, another member's id or another choice with 400, and changes nothing", async () => {
    const member = await createMember("player");
    const other = await createMember("player");
    const token = await unsubscribeToken(member.id, "news");
    const flipped = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    const refused = [
      addressOf({ member: member.id, choice: "news", token: flipped }),
      addressOf({ member: other.id, choice: "news", token }),
      addressOf({ member: member.id, choice: "events", token }),
      addressOf({ member: member.id, choice: "news", token: "" }),
      addressOf({ member: member.id, choice: "news" }),
      addressOf({ member: member.id, choice: "everything", token }),
      "/unsubscribe",
    ];
    for (const address of refused) {
      const opened = await fetch(app().url + address);
      const answers = [await onePress(address), { status: opened.status, body: await opened.text() }];
      for (const { status, body } of answers) {
        expect(status, address).toBe(400);
        expect(visibleText(body), address).toContain(UNSUBSCRIBE_MESSAGES.invalid);
        expect(body, address).not.toContain('method="post"');
      }
    }
    expect(await messageChoicesOf(member.id)).toEqual({ news: true, events: true });
    expect(await messageChoicesOf(other.id)).toEqual({ news: true, events: true });
    expect(await unsubscribeAudits(member.id)).toEqual([]);
    expect(await unsubscribeAudits(other.id)).toEqual([]);
  });

  it("answers a link for nobody exactly as a tampered one: it never says whether a member exists", async () => {
    const member = await createMember("player");
    const nobody = crypto.randomUUID();
    // A token made for an id no account has, as the site's own secret would make it.
    const forNobody = addressOf({ member: nobody, choice: "news", token: await unsubscribeToken(nobody, "news") });
    const tampered = addressOf({ member: member.id, choice: "news", token: "x".repeat(43) });
    const pages = [];
    for (const address of [forNobody, tampered]) {
      const response = await fetch(app().url + address);
      expect(response.status).toBe(400);
      pages.push(visibleText(await response.text()));
      expect((await onePress(address)).status).toBe(400);
    }
    expect(pages[0]).toBe(pages[1]);
  });
});
