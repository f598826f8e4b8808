import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "~/web/forms/messages";
import { applications, outbox } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm, validApplication } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();

describe("the player application", () => {
  // Notices are queued (nothing listens at this address).
  const app = withAppServer({ DISCORD_WEBHOOK_URL: "http://127.0.0.1:9/webhook" });

  it("saves one pending application for the member, whatever ids the body carries, and queues a notice", async () => {
    const applicant = await signedInMember("applicant");
    const other = await signedInMember("applicant");
    const response = await postForm(
      app().url,
      "/application",
      validApplication({ userId: other.id, user_id: other.id, status: "accepted" }),
      applicant.cookie,
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Application Submitted!");

    const rows = await db().select().from(applications).where(eq(applications.userId, applicant.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: "pending",
      discordTag: "settler_1877",
      rolePreference: "player",
      email: applicant.email,
    });
    expect(await db().select().from(applications).where(eq(applications.userId, other.id))).toEqual([]);

    const notices = await db().select().from(outbox).where(eq(outbox.kind, "discord"));
    expect(notices.some((n) => String(n.payload.content).includes("hopes to join Hopewell as a player"))).toBe(true);
  });

  it("never makes a second row or reopens a decided application", async () => {
    const applicant = await signedInMember("applicant");
    await postForm(app().url, "/application", validApplication(), applicant.cookie);
    await db().update(applications).set({ status: "accepted" }).where(eq(applications.userId, applicant.id));
    const again = await Promise.all(
      [1, 2, 3].map(() =>
        postForm(app().url, "/application", validApplication({ discordTag: "changed" }), applicant.cookie),
      ),
    );
    expect(again.map((r) => r.status)).toEqual([200, 200, 200]);
    const rows = await db().select().from(applications).where(eq(applications.userId, applicant.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "accepted", discordTag: "settler_1877" });
    const page = await fetch(`${app().url}/application`, { headers: { Cookie: applicant.cookie } });
    const html = await page.text();
    expect(html).toContain("You have already applied");
    expect(html).not.toContain('name="discordTag"');
  });

  it("refuses missing, blank, invalid and oversized answers with the product's messages", async () => {
    const applicant = await signedInMember("applicant");
    const cases: [Record<string, string>, string][] = [
      [{}, MESSAGES.required],
      [validApplication({ larpExperience: "   " }), MESSAGES.required],
      [validApplication({ rolePreference: "manager" }), MESSAGES.required],
      [validApplication({ referralSource: "x".repeat(100_000) }), "Please keep this to 5,000 characters or fewer"],
    ];
    for (const [fields, fieldMessage] of cases) {
      const response = await postForm(app().url, "/application", fields, applicant.cookie);
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(html).toContain(MESSAGES.requiredAll);
      expect(html).toContain(fieldMessage);
    }
    expect(await db().select().from(applications).where(eq(applications.userId, applicant.id))).toEqual([]);
  });

  it("is for signed-in members only", async () => {
    const response = await postForm(app().url, "/application", validApplication());
    expect(response.status).toBe(401);
    const page = await fetch(`${app().url}/application`, { redirect: "manual" });
    expect(page.headers.get("Location")).toBe("/auth?redirectTo=%2Fapplication");
  });
});
