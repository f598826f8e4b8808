import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { withAppServer } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { signedInMember } from "../helpers/members";

const db = withTestDatabase();

/**
 * A page whose reads fail answers 500 with its own heading and message inside the site's
 * layout (the route's error boundary), not a half-empty page that says 200.
 */
describe("a page whose reads fail", () => {
  const app = withAppServer();

  it("shows the page's heading and message with a 500, and recovers once the reads work", async () => {
    const member = await signedInMember("manager");
    const pages: [string, string, string][] = [
      ["/events/manage", "Manage Events", "Failed to load events"],
      ["/view-pels", "Post-Event Letters", "Failed to load data"],
      ["/view-merchant-orders", "Merchant Orders", "Failed to load orders"],
      ["/view-research", "Research Papers", "Failed to load research data"],
      ["/attendance", "Attendance", "Failed to load attendance data"],
      ["/events", "Upcoming Events", "Failed to load events"],
      ["/merchant-orders", "Merchant Order", SUBMISSION_MESSAGES.loadFailed],
      ["/pels", "Post-Event Letter", SUBMISSION_MESSAGES.loadFailed],
      ["/research", "Research", SUBMISSION_MESSAGES.loadFailed],
      ["/attendance-tool", "Attendance Tool", "Failed to load data"],
      ["/costume", "Costume Photos", "Failed to load costume photos"],
      ["/view-costumes", "Costume Photos", "Failed to load costume photos"],
    ];
    await db().execute(sql`alter table events rename to events_away`);
    try {
      for (const [page, title, message] of pages) {
        const response = await fetch(app().url + page, { headers: { Cookie: member.cookie } });
        expect(response.status, page).toBe(500);
        const html = await response.text();
        expect(html, page).toMatch(new RegExp(`<h1[^>]*>${title}</h1>`));
        expect(html, page).toContain(message);
        // The site's navigation is still there.
        expect(html, page).toContain('href="/profile"');
      }
    } finally {
      await db().execute(sql`alter table events_away rename to events`);
    }
    for (const [page] of pages) {
      const response = await fetch(app().url + page, { headers: { Cookie: member.cookie } });
      expect(response.status, page).toBe(200);
    }
  });

  it("shows the application page's heading and message when the application cannot be read", async () => {
    const member = await signedInMember("applicant");
    await db().execute(sql`alter table applications rename to applications_away`);
    try {
      const response = await fetch(app().url + "/application", { headers: { Cookie: member.cookie } });
      expect(response.status).toBe(500);
      const html = await response.text();
      expect(html).toMatch(/<h1[^>]*>Player Application<\/h1>/);
      expect(html).toContain(SUBMISSION_MESSAGES.loadFailed);
      // Before, a failed read showed an empty application form.
      expect(html).not.toContain('name="discordTag"');
    } finally {
      await db().execute(sql`alter table applications_away rename to applications`);
    }
  });

  it("shows the staff letters page's heading and message when the letters cannot be read", async () => {
    const manager = await signedInMember("manager");
    await db().execute(sql`alter table letters rename to letters_away`);
    try {
      const response = await fetch(app().url + "/view-letters", { headers: { Cookie: manager.cookie } });
      expect(response.status).toBe(500);
      const html = await response.text();
      expect(html).toMatch(/<h1[^>]*>Letters<\/h1>/);
      expect(html).toContain("Failed to load letters");
    } finally {
      await db().execute(sql`alter table letters_away rename to letters`);
    }
  });

  /** Renames `table` while `pages` are asked for; each must show its heading and message with a 500, in the signed-in layout. */
  async function expectFailedPages(table: string, cookie: string, pages: [string, string, string][]) {
    await db().execute(sql.raw(`alter table ${table} rename to ${table}_away`));
    try {
      for (const [page, title, message] of pages) {
        const response = await fetch(app().url + page, { headers: { Cookie: cookie } });
        expect(response.status, page).toBe(500);
        const html = await response.text();
        expect(html, page).toMatch(new RegExp(`<h1[^>]*>${title}</h1>`));
        expect(html, page).toContain(message);
        expect(html, page).toContain('href="/profile"');
        expect(html, page).toContain('href="/tools"');
      }
    } finally {
      await db().execute(sql.raw(`alter table ${table}_away rename to ${table}`));
    }
    for (const [page] of pages) {
      const response = await fetch(app().url + page, { headers: { Cookie: cookie } });
      expect(response.status, page).toBe(200);
    }
  }

  it("shows the staff tools' heading and the product's message for each tab whose reads fail", async () => {
    const manager = await signedInMember("manager");
    await expectFailedPages("characters", manager.cookie, [
      ["/tools", "Tools", "Failed to load user data"],
      ["/tools?tab=cast", "Tools", "Failed to load user data"],
    ]);
    await expectFailedPages("applications", manager.cookie, [
      ["/tools?tab=applications", "Tools", "Failed to load data"],
    ]);
    await expectFailedPages("audit_log", manager.cookie, [["/tools?tab=audit", "Tools", "Failed to load user data"]]);
  });

  it("shows the emergency contacts and outbox pages' headings and messages when their reads fail", async () => {
    const manager = await signedInMember("manager");
    await expectFailedPages("audit_log", manager.cookie, [
      ["/emergency-contacts", "Emergency Contacts", "Failed to load user data"],
    ]);
    await expectFailedPages("outbox", manager.cookie, [["/outbox", "Outbox", "Failed to load the outbox"]]);
  });
});
