import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, profiles } from "~/server/db/schema";
import { withAppServer } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { postForm } from "../helpers/forms";
import { signedInMember } from "../helpers/members";

const db = withTestDatabase();

describe("the Roles tool", () => {
  const app = withAppServer();

  it("lets a manager promote an applicant, recorded in the audit log, effective on their next request", async () => {
    const manager = await signedInMember("manager");
    const applicant = await signedInMember("applicant");
    const page = await (await fetch(`${app().url}/tools?tab=roles&q=${encodeURIComponent(applicant.email)}`, { headers: { Cookie: manager.cookie } })).text();
    expect(page).toContain(applicant.email);
    expect(page).toContain("1 member matching");

    const response = await postForm(app().url, "/tools?tab=roles", { intent: "role", userId: applicant.id, role: "player" }, manager.cookie);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Role changed to player.");
    const [row] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, applicant.id));
    expect(row!.role).toBe("player");
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.subjectId, applicant.id));
    expect(entry).toMatchObject({ actorId: manager.id, action: "role.change", details: { from: "applicant", to: "player" } });
    expect((await fetch(`${app().url}/character`, { headers: { Cookie: applicant.cookie }, redirect: "manual" })).status).toBe(200);
    // Managers read the audit log.
    const log = await (await fetch(`${app().url}/tools?tab=audit`, { headers: { Cookie: manager.cookie } })).text();
    expect(log).toMatch(/Test\d+ manager changed the role of Test\d+ applicant/);
    expect(log).toContain("applicant → player");
  });

  it("never removes the last manager", async () => {
    await db().update(profiles).set({ role: "player" }).where(eq(profiles.role, "manager"));
    const manager = await signedInMember("manager");
    const response = await postForm(app().url, "/tools?tab=roles", { intent: "role", userId: manager.id, role: "cast" }, manager.cookie);
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("There must always be at least one manager.");
    const [row] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, manager.id));
    expect(row!.role).toBe("manager");
  });

  it("refuses cast, players and nonsense roles, changing nothing", async () => {
    const cast = await signedInMember("cast");
    const target = await signedInMember("applicant");
    expect((await postForm(app().url, "/tools?tab=roles", { intent: "role", userId: target.id, role: "manager" }, cast.cookie)).status).toBe(403);
    const manager = await signedInMember("manager");
    expect((await postForm(app().url, "/tools?tab=roles", { intent: "role", userId: target.id, role: "sheriff" }, manager.cookie)).status).toBe(400);
    const [row] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, target.id));
    expect(row!.role).toBe("applicant");
    // Cast see the tools, but not the managers' tabs.
    const page = await (await fetch(`${app().url}/tools?tab=roles`, { headers: { Cookie: cast.cookie } })).text();
    expect(page).toContain("Player List");
    expect(page).not.toContain('href="?tab=roles"');
  });
});
