import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { FORM_MESSAGES } from "~/web/forms/kernel";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { ROLES, type Role } from "~/game/roles";
import routes from "~/routes";
import { createEvent } from "~/platform/db/factories";
import { letters, profiles } from "~/platform/db/schema";
import { withAppServer } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { postForm } from "../helpers/forms";
import { signedInMember } from "../helpers/members";
import { routePatterns } from "../helpers/route-patterns";
import { readable } from "../helpers/html";

/**
 * Hostile input to every form of the site, as every role: control characters in each field,
 * overlong values, and bodies that are not forms at all. Whatever arrives, the answer is a
 * page (400 with the form's message, or a refusal), never a server error.
 */
const db = withTestDatabase();

/** The route patterns whose module has an action, with a made-up id for any parameter. */
function postRoutes(): string[] {
  const files = new Map<string, string>();
  (function walk(entries: typeof routes, parent = "") {
    for (const entry of entries) {
      const pattern = `/${[parent, entry.path ?? ""].filter(Boolean).join("/")}`;
      files.set(entry.index ? `/${parent}` : pattern, entry.file);
      if (entry.children) walk(entry.children, pattern.slice(1));
    }
  })(routes);
  return routePatterns()
    .filter((pattern) => pattern !== "/*")
    .filter((pattern) =>
      /export (async function|const) action\b/.test(fs.readFileSync(path.resolve("app", files.get(pattern)!), "utf8")),
    )
    .map((pattern) => pattern.replace(/:[^/]+/g, "00000000-0000-4000-8000-000000000000"));
}

type Field = { name: string; value: string; text: boolean };
type PageForm = { action: string; fields: Field[] };

const attributes = (tag: string) =>
  Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k!, readable(v!)]));

/** A valid-looking value for a field a member fills in, so the field under test is the only wrong one. */
function plausible(type: string, name: string): string {
  if (type === "email" || name === "email") return "fuzz@example.com";
  if (type === "password" || /password/i.test(name)) return "Lantern#1877";
  if (type === "tel" || name === "phone") return "(860) 555-0142";
  if (type === "date") return "2031-05-01";
  if (type === "url" || /url/i.test(name)) return "https://example.com/tickets";
  if (type === "number" || name.startsWith("qty_")) return "1";
  return "Fuzz text";
}

/** The POST forms of a page, each with its fields filled in plausibly (hidden fields keep their values). */
function formsOf(html: string, pagePath: string): PageForm[] {
  const forms: PageForm[] = [];
  for (const [, open, body] of html.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)) {
    const formAttributes = attributes(open!);
    if ((formAttributes.method ?? "get").toLowerCase() !== "post") continue;
    const fields: Field[] = [];
    const seen = new Set<string>();
    for (const [tag] of body!.matchAll(/<input[^>]*>/g)) {
      const a = attributes(tag);
      if (!a.name || seen.has(a.name) || a.type === "file" || a.type === "submit") continue;
      seen.add(a.name);
      const text = !["hidden", "radio", "checkbox"].includes(a.type ?? "text");
      fields.push({ name: a.name, value: text ? plausible(a.type ?? "text", a.name) : (a.value ?? "on"), text });
    }
    for (const [tag] of body!.matchAll(/<textarea[^>]*>/g)) {
      const a = attributes(tag);
      if (!a.name || seen.has(a.name)) continue;
      seen.add(a.name);
      fields.push({ name: a.name, value: "Fuzz text, long enough to count.", text: true });
    }
    for (const [, tag, options] of body!.matchAll(/<select([^>]*)>([\s\S]*?)<\/select>/g)) {
      const a = attributes(tag!);
      const first = [...options!.matchAll(/<option[^>]*value="([^"]+)"/g)][0]?.[1];
      if (!a.name || seen.has(a.name)) continue;
      seen.add(a.name);
      fields.push({ name: a.name, value: readable(first ?? ""), text: false });
    }
    for (const [tag] of body!.matchAll(/<button[^>]*name="[^"]*"[^>]*>/g)) {
      const a = attributes(tag);
      if (!a.name || seen.has(a.name)) continue;
      seen.add(a.name);
      fields.push({ name: a.name, value: a.value ?? "", text: false });
    }
    forms.push({
      action: formAttributes.action
        ? new URL(formAttributes.action, "http://x" + pagePath).pathname
        : pagePath.split("?")[0]!,
      fields,
    });
  }
  return forms;
}

const HOSTILE = ["Mum\u0000", "\u0000", "a\u0001b\u001bc\u007f", "x".repeat(100_001)];
const ID = "00000000-0000-4000-8000-000000000000";

describe("hostile input to every form", () => {
  const app = withAppServer();
  const members: Partial<Record<Role | "anonymous", string | undefined>> = { anonymous: undefined };

  beforeAll(async () => {
    const database = db();
    await createEvent(database, { status: "future", title: "Fuzz Gathering" });
    await createEvent(database, { status: "past", title: "Fuzz Past" });
    for (const role of ROLES) members[role] = (await signedInMember(role)).cookie;
  });

  function post(path: string, body: BodyInit | undefined, headers: Record<string, string>, cookie?: string) {
    return fetch(app().url + path, {
      method: "POST",
      headers: { Origin: app().url, ...headers, ...(cookie ? { Cookie: cookie } : {}) },
      body,
      redirect: "manual",
    });
  }

  it("never answers a server error to control characters or overlong values in any field, for any role", async () => {
    const IN_FLIGHT = 4;
    const failures: string[] = [];
    let requests = 0;
    const pages = [
      ...routePatterns().filter((p) => !p.includes(":") && p !== "/*"),
      "/profile?tab=profile&edit=contact",
      "/profile?tab=character&edit=backstory",
      ...["players", "cast", "applications", "roles", "audit"].map((tab) => `/tools?tab=${tab}`),
    ];
    for (const [role, cookie] of Object.entries(members)) {
      const forms = new Map<string, PageForm>();
      for (const page of pages) {
        const response = await fetch(app().url + page, {
          headers: cookie ? { Cookie: cookie } : {},
          redirect: "manual",
        });
        if (response.status !== 200) continue;
        for (const form of formsOf(await response.text(), page)) {
          forms.set(`${form.action} ${form.fields.map((f) => `${f.name}=${f.text ? "" : f.value}`).join("&")}`, form);
        }
      }
      for (const form of forms.values()) {
        if (form.action === "/logout") continue; // signing out would end this role's run
        const valid = Object.fromEntries(form.fields.map((f) => [f.name, f.value]));
        const variants: Record<string, string>[] = [];
        for (const field of form.fields) {
          for (const hostile of HOSTILE)
            variants.push({ ...valid, [field.name]: field.text ? hostile : field.value + hostile });
        }
        variants.push(Object.fromEntries(form.fields.map((f) => [f.name, `${f.value}\u0000`])));
        variants.push({
          ...valid,
          altcha: "\u0000",
          userId: "\u0000",
          id: "\u0000",
          applicationId: "\u0000",
          eventId: "\u0000",
        });
        // A few posts in flight at once: the server hashes passwords and parses on other threads
        // while one request waits, and every answer is still checked.
        for (let start = 0; start < variants.length; start += IN_FLIGHT) {
          await Promise.all(
            variants.slice(start, start + IN_FLIGHT).map(async (fields) => {
              const response = await postForm(app().url, form.action, fields, cookie);
              requests++;
              if (response.status >= 500)
                failures.push(`${role} ${form.action} ${JSON.stringify(fields).slice(0, 160)} -> ${response.status}`);
              await response.body?.cancel();
            }),
          );
        }
      }
    }
    expect(requests).toBeGreaterThan(300);
    expect(failures).toEqual([]);
  }, 600_000);

  it("never answers a server error to a body that is not a form, on any POST route, for any role", async () => {
    const failures: string[] = [];
    const bodies: [string, Record<string, string>, BodyInit | undefined][] = [
      [
        "json",
        { "Content-Type": "application/json" },
        JSON.stringify({ intent: "contact", name: "Mum", recipient: "Ma", body: "Hello" }),
      ],
      ["text", { "Content-Type": "text/plain" }, "recipient=Ma&body=Hello"],
      [
        "broken multipart",
        { "Content-Type": "multipart/form-data; boundary=expected" },
        '--other\r\nContent-Disposition: form-data; name="body"\r\n\r\nHello\r\n--other--\r\n',
      ],
      ["multipart without boundary", { "Content-Type": "multipart/form-data" }, "garbage"],
      ["no type", {}, "recipient=Ma&body=Hello"],
      ["no body", {}, undefined],
      ["xml", { "Content-Type": "application/xml" }, "<letter/>"],
    ];
    for (const [role, cookie] of Object.entries(members)) {
      for (const route of postRoutes()) {
        if (route === "/logout") continue;
        for (const [name, headers, body] of bodies) {
          const response = await post(route, body, headers, cookie);
          if (response.status >= 500) failures.push(`${role} ${route} ${name} -> ${response.status}`);
          await response.body?.cancel();
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it("refuses a NUL in the emergency contact's name with the field's message, saving nothing", async () => {
    const member = await signedInMember("player");
    const response = await postForm(
      app().url,
      "/profile",
      { intent: "contact", name: "Mum\u0000", phone: "(860) 555-0142" },
      member.cookie,
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(FORM_MESSAGES.controlCharacters);
    expect(html).toContain('name="name"');
    const [row] = await db()
      .select({ contact: profiles.emergencyContact })
      .from(profiles)
      .where(eq(profiles.id, member.id));
    expect(row!.contact).toBeNull();
  });

  it("refuses a NUL in a letter with the field's message, and keeps what was typed", async () => {
    const member = await signedInMember("player");
    const response = await postForm(
      app().url,
      "/letters",
      { submissionKey: crypto.randomUUID(), recipient: "Ma Holt", body: "Dear Ma\u0000" },
      member.cookie,
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(FORM_MESSAGES.controlCharacters);
    expect(html).toContain('value="Ma Holt"');
    expect(await db().select().from(letters).where(eq(letters.userId, member.id))).toEqual([]);
  });

  it("answers a letter sent as JSON with a 400 page that says the form could not be read", async () => {
    const member = await signedInMember("player");
    const response = await post(
      "/letters",
      JSON.stringify({ submissionKey: ID, recipient: "Ma", body: "Hello" }),
      { "Content-Type": "application/json" },
      member.cookie,
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("Content-Type")).toContain("text/html");
    const html = await response.text();
    expect(html).toContain(FORM_MESSAGES.unreadable);
    expect(html).not.toContain(SUBMISSION_MESSAGES.letterFailed);
    // The page keeps the signed-in member's navigation (the route's own boundary, not the root's).
    expect(html).toContain('href="/profile"');
    expect(await db().select().from(letters).where(eq(letters.userId, member.id))).toEqual([]);
  });

  it("keeps the signed-in navigation on the 400 page of every page with a form, whoever's boundary shows it", async () => {
    const manager = await signedInMember("manager");
    const pages = [
      "/auth",
      "/forgot-password",
      "/reset-password",
      "/tools",
      "/outbox",
      "/attendance-tool",
      "/profile",
      "/events/manage",
    ];
    for (const page of pages) {
      const response = await post(
        page,
        JSON.stringify({ intent: "contact" }),
        { "Content-Type": "application/json" },
        manager.cookie,
      );
      expect(response.status, page).toBe(400);
      const html = await response.text();
      expect(html, page).toContain(FORM_MESSAGES.unreadable);
      // Before, pages without their own boundary showed the signed-out menu here.
      expect(html, page).toContain('href="/profile"');
      expect(html, page).toContain('href="/tools"');
    }
  });

  it("answers a NUL in the recipient search with a 400 and a message", async () => {
    const member = await signedInMember("player");
    const response = await fetch(`${app().url}/letters/recipients?q=%00`, { headers: { Cookie: member.cookie } });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(FORM_MESSAGES.invalidSearch);
    const fine = await fetch(`${app().url}/letters/recipients?q=Ma`, { headers: { Cookie: member.cookie } });
    expect(fine.status).toBe(200);
  });

  it("answers a NUL in a staff search with a 400 page", async () => {
    const manager = await signedInMember("manager");
    for (const page of ["/view-letters", "/view-pels", "/tools", "/emergency-contacts", "/attendance-tool"]) {
      const response = await fetch(`${app().url}${page}?q=%00`, { headers: { Cookie: manager.cookie } });
      expect(response.status, page).toBe(400);
      expect(await response.text(), page).toContain(FORM_MESSAGES.invalidSearch);
    }
  });
});
