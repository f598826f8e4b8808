import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, profiles } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();
const app = withAppServer();

describe("the emergency contacts list", () => {
  it("shows managers every member's contact, marks those without one, and audits each look", async () => {
    const manager = await signedInMember("manager");
    const withContact = await signedInMember("player");
    const without = await signedInMember("player");
    await db()
      .update(profiles)
      .set({ emergencyContact: { name: "Martha Tanner", phone: "+1 860 555 0142" } })
      .where(eq(profiles.id, withContact.id));
    const html = await (
      await fetch(`${app().url}/emergency-contacts?q=player`, { headers: { Cookie: manager.cookie } })
    ).text();
    expect(html).toContain("Martha Tanner");
    expect(html).toContain('href="tel:+18605550142"');
    expect(html).toContain(without.email);
    expect(html).toContain("No emergency contact");
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.actorId, manager.id));
    expect(entry).toMatchObject({ action: "emergency_contacts.view", details: { search: "player", page: 0 } });
    expect(JSON.stringify(entry!.details)).not.toContain("Martha");
  });

  it("keeps cast and players out", async () => {
    for (const role of ["cast", "player"] as const) {
      const member = await signedInMember(role);
      const response = await fetch(`${app().url}/emergency-contacts`, {
        headers: { Cookie: member.cookie },
        redirect: "manual",
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
      const data = await fetch(`${app().url}/emergency-contacts.data`, {
        headers: { Cookie: member.cookie },
        redirect: "manual",
      });
      expect(data.status).toBe(403);
    }
  });
});
