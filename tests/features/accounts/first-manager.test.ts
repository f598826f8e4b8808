import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { MESSAGES, SITE_MESSAGES } from "~/web/forms/messages";
import { auditLog, profiles } from "~/platform/db/schema";
import { openFirstManagerSetup } from "~/features/accounts/first-manager.server";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";

const db = withTestDatabase();

describe("the first manager, made in the browser with the set-up link", () => {
  const app = withAppServer();
  let token: string;
  beforeAll(async () => {
    // What the server does at start-up on a site without a manager; the token lives in memory.
    token = (await openFirstManagerSetup())!;
    expect(token).toMatch(/^[\w-]{43}$/);
  });
  const fields = (overrides: Record<string, string> = {}) => ({
    token,
    firstName: "Ada",
    lastName: "Boss",
    email: "ada@example.com",
    password: "Choose#1877",
    confirmPassword: "Choose#1877",
    ...overrides,
  });

  it("shows the form only with the right token", async () => {
    const page = await fetch(`${app().url}/setup?token=${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Create the First Manager");
    expect(html).toContain("Confirm password");
    for (const wrong of ["", "x", token.slice(0, -1), `${token}x`]) {
      const refused = await fetch(`${app().url}/setup?token=${encodeURIComponent(wrong)}`);
      expect(refused.status, wrong).toBe(404);
    }
    expect((await postForm(app().url, "/setup", fields({ token: "guess" }))).status).toBe(404);
  });

  it("keeps the site's password rules, and a failed try leaves the link working", async () => {
    const weak = await postForm(app().url, "/setup", fields({ password: "password", confirmPassword: "password" }));
    expect(weak.status).toBe(400);
    expect(await weak.text()).toContain(MESSAGES.passwordRequirements);
    const mismatch = await postForm(app().url, "/setup", fields({ confirmPassword: "Choose#1878" }));
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain(MESSAGES.passwordsDontMatch);
    const badEmail = await postForm(app().url, "/setup", fields({ email: "not-an-email" }));
    expect(await badEmail.text()).toContain(SITE_MESSAGES.invalidEmail);
    expect(await db().select().from(profiles)).toEqual([]);
    expect((await fetch(`${app().url}/setup?token=${token}`)).status).toBe(200);
  });

  it("creates a manager once, audits it, and then the link stops working", async () => {
    const created = await postForm(app().url, "/setup", fields());
    expect(created.status).toBe(302);
    expect(created.headers.get("Location")).toBe("/auth?created=1");
    const [manager] = await db()
      .select({ id: profiles.id, role: profiles.role, firstName: profiles.firstName })
      .from(profiles)
      .where(eq(profiles.email, "ada@example.com"));
    expect(manager).toMatchObject({ role: "manager", firstName: "Ada" });
    expect(await db().select({ action: auditLog.action, actorId: auditLog.actorId }).from(auditLog)).toEqual([
      { action: "first_manager.create", actorId: manager!.id },
    ]);

    const again = await postForm(app().url, "/setup", fields({ email: "second@example.com" }));
    expect(again.status).toBe(404);
    const page = await fetch(`${app().url}/setup?token=${token}`);
    expect(page.status).toBe(404);
    // Shown on the page itself, not only in the data the page carries for the browser.
    expect((await page.text()).replace(/<script[\s\S]*?<\/script>/g, "")).toContain("This set-up link has been used");
    expect(await db().select().from(profiles).where(eq(profiles.email, "second@example.com"))).toEqual([]);
  });
});
