import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { runAdminCommand } from "~/ops/control/admin.server";
import { auditLog, profiles } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";
import { readable } from "../../helpers/html";

const db = withTestDatabase();

describe("the Roles tool", () => {
  const app = withAppServer();

  it("lets a manager promote an applicant, recorded in the audit log, effective on their next request", async () => {
    const manager = await signedInMember("manager");
    const applicant = await signedInMember("applicant");
    const page = await (
      await fetch(`${app().url}/tools?tab=roles&q=${encodeURIComponent(applicant.email)}`, {
        headers: { Cookie: manager.cookie },
      })
    ).text();
    expect(page).toContain(applicant.email);
    expect(page).toContain("1 member matching");

    const response = await postForm(
      app().url,
      "/tools?tab=roles",
      { intent: "role", userId: applicant.id, role: "player", confirm: "yes" },
      manager.cookie,
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Role changed to player.");
    const [row] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, applicant.id));
    expect(row!.role).toBe("player");
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.subjectId, applicant.id));
    expect(entry).toMatchObject({
      actorId: manager.id,
      action: "role.change",
      details: { from: "applicant", to: "player" },
    });
    expect(
      (await fetch(`${app().url}/character`, { headers: { Cookie: applicant.cookie }, redirect: "manual" })).status,
    ).toBe(200);
    // Managers read the audit log.
    const log = await (await fetch(`${app().url}/tools?tab=audit`, { headers: { Cookie: manager.cookie } })).text();
    expect(log).toMatch(/Test\d+ manager changed the role of Test\d+ applicant/);
    expect(log).toContain("applicant → player");
  });

  it("asks first: without confirm=yes it answers with a confirmation step and changes nothing", async () => {
    const manager = await signedInMember("manager");
    const applicant = await signedInMember("applicant");
    const asked = await postForm(
      app().url,
      "/tools?tab=roles",
      { intent: "role", userId: applicant.id, role: "cast" },
      manager.cookie,
    );
    expect(asked.status).toBe(200);
    const page = readable(await asked.text());
    // The step names the member and the change, and its button posts the same change again, confirmed.
    expect(page).toContain(
      `Are you sure you want to change ${applicant.firstName} applicant's role from Applicant to Cast?`,
    );
    const form =
      page.match(
        /<form [^>]*method="post"[^>]*>((?:(?!<\/form>).)*name="confirm" value="yes"(?:(?!<\/form>).)*)<\/form>/s,
      )?.[1] ?? "";
    expect(form).toContain(`name="userId" value="${applicant.id}"`);
    expect(form).toContain('name="role" value="cast"');
    expect(form).toContain("Yes, make them Cast");
    expect(page).toMatch(/<a [^>]*href="\/tools\?tab=roles"[^>]*>Cancel<\/a>/);
    expect(page).not.toContain("Role changed to");
    const [unchanged] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, applicant.id));
    expect(unchanged!.role).toBe("applicant");
    expect(await db().select().from(auditLog).where(eq(auditLog.subjectId, applicant.id))).toEqual([]);
    // Anything but "yes" is not a confirmation.
    await postForm(
      app().url,
      "/tools?tab=roles",
      { intent: "role", userId: applicant.id, role: "cast", confirm: "no" },
      manager.cookie,
    );
    expect(
      (await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, applicant.id)))[0]!.role,
    ).toBe("applicant");

    const confirmed = await postForm(
      app().url,
      "/tools?tab=roles",
      { intent: "role", userId: applicant.id, role: "cast", confirm: "yes" },
      manager.cookie,
    );
    expect(readable(await confirmed.text())).toContain("Role changed to cast.");
    const [changed] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, applicant.id));
    expect(changed!.role).toBe("cast");
    const audits = await db().select().from(auditLog).where(eq(auditLog.subjectId, applicant.id));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ action: "role.change", details: { from: "applicant", to: "cast" } });
  });

  it("never removes the last manager", async () => {
    await db().update(profiles).set({ role: "player" }).where(eq(profiles.role, "manager"));
    const manager = await signedInMember("manager");
    const response = await postForm(
      app().url,
      "/tools?tab=roles",
      { intent: "role", userId: manager.id, role: "cast", confirm: "yes" },
      manager.cookie,
    );
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("There must always be at least one manager.");
    const [row] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, manager.id));
    expect(row!.role).toBe("manager");
  });

  it("refuses cast, players and nonsense roles, changing nothing", async () => {
    const cast = await signedInMember("cast");
    const target = await signedInMember("applicant");
    expect(
      (
        await postForm(
          app().url,
          "/tools?tab=roles",
          { intent: "role", userId: target.id, role: "manager", confirm: "yes" },
          cast.cookie,
        )
      ).status,
    ).toBe(403);
    const manager = await signedInMember("manager");
    expect(
      (
        await postForm(
          app().url,
          "/tools?tab=roles",
          { intent: "role", userId: target.id, role: "sheriff", confirm: "yes" },
          manager.cookie,
        )
      ).status,
    ).toBe(400);
    const [row] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, target.id));
    expect(row!.role).toBe("applicant");
    // Cast see the tools, but not the managers' tabs.
    const page = await (await fetch(`${app().url}/tools?tab=roles`, { headers: { Cookie: cast.cookie } })).text();
    expect(page).toContain("Player List");
    expect(page).not.toContain('href="?tab=roles"');
  });
});

describe("the admin command's role changes (npm run admin, in its own process or through the running server)", () => {
  const app = withAppServer();

  it("go through the same audited change, with the operator as the actor", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("applicant");
    const outcome = await runAdminCommand(["set-role", "--email", member.email.toUpperCase(), "--role", "cast"]);
    expect(outcome).toEqual({ code: 0, out: [`${member.email.toUpperCase()} is now cast.`], err: [] });
    const [row] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, member.id));
    expect(row!.role).toBe("cast");
    const entries = await db().select().from(auditLog).where(eq(auditLog.subjectId, member.id));
    expect(entries).toMatchObject([
      { actorId: null, action: "role.change", details: { from: "applicant", to: "cast", operator: "cli" } },
    ]);

    // Setting the role a member already has changes and records nothing.
    expect((await runAdminCommand(["set-role", "--email", member.email, "--role", "cast"])).out).toEqual([
      `${member.email} is already cast.`,
    ]);
    expect(await db().select().from(auditLog).where(eq(auditLog.subjectId, member.id))).toHaveLength(1);

    // An account made with a role is recorded the same way.
    const created = await runAdminCommand([
      "create-user",
      "--email",
      "ada@example.org",
      "--password",
      "Choose#1877",
      "--first",
      "Ada",
      "--last",
      "Boss",
      "--role",
      "manager",
    ]);
    expect(created.out).toEqual([
      "Created ada@example.org (manager).",
      "Its address counts as confirmed, since you typed it: signing in with an emailed code keeps its password.",
    ]);
    const [ada] = await db()
      .select({ id: profiles.id, role: profiles.role })
      .from(profiles)
      .where(eq(profiles.email, "ada@example.org"));
    expect(ada!.role).toBe("manager");
    expect(await db().select().from(auditLog).where(eq(auditLog.subjectId, ada!.id))).toMatchObject([
      { actorId: null, action: "role.change", details: { from: "applicant", to: "manager", operator: "cli" } },
    ]);

    const log = await (await fetch(`${app().url}/tools?tab=audit`, { headers: { Cookie: manager.cookie } })).text();
    expect(log).toMatch(/The admin command \(npm run admin\) changed the role of Test\d+ applicant/);
  });

  it("never demote the last manager", async () => {
    await db().update(profiles).set({ role: "player" }).where(eq(profiles.role, "manager"));
    const manager = await signedInMember("manager");
    const before = await db().select().from(auditLog);
    const outcome = await runAdminCommand(["set-role", "--email", manager.email, "--role", "player"]);
    expect(outcome.code).toBe(1);
    expect(outcome.err).toEqual([
      `${manager.email} is the only manager. There must always be at least one manager: make someone else a manager first.`,
    ]);
    const [row] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, manager.id));
    expect(row!.role).toBe("manager");
    expect(await db().select().from(auditLog)).toEqual(before);

    // With a second manager, the first may step down.
    const second = await signedInMember("applicant");
    expect((await runAdminCommand(["set-role", "--email", second.email, "--role", "manager"])).code).toBe(0);
    expect((await runAdminCommand(["set-role", "--email", manager.email, "--role", "player"])).code).toBe(0);
    expect((await runAdminCommand(["set-role", "--email", "nobody@example.org", "--role", "player"])).err).toEqual([
      "No account has the email nobody@example.org.",
    ]);
  });
});
