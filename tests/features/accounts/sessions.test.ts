import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { profiles, sessions } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();
const app = withAppServer();
const DAY = 86_400_000;
const profilePage = (cookie: string) =>
  fetch(`${app().url}/profile`, { headers: { Cookie: cookie }, redirect: "manual" });

describe("sessions", () => {
  it("are used as they are for a day, then pushed back to thirty days from now", async () => {
    const player = await signedInMember("player");
    const fresh = await profilePage(player.cookie);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.getSetCookie()).toEqual([]);

    const [session] = await db().select().from(sessions).where(eq(sessions.userId, player.id));
    await db()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 10 * DAY) })
      .where(eq(sessions.id, session!.id));
    const due = await profilePage(player.cookie);
    expect(due.status).toBe(200);
    expect(due.headers.getSetCookie().join()).toContain("hopewell.session_token=");
    const [extended] = await db().select().from(sessions).where(eq(sessions.id, session!.id));
    expect(extended!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * DAY);
  });

  it("are kept in memory between requests, yet a change to the member or session applies to the next request", async () => {
    const member = await signedInMember("player");
    const tools = () => fetch(`${app().url}/tools`, { headers: { Cookie: member.cookie }, redirect: "manual" });
    expect((await tools()).headers.get("Location")).toBe("/");
    expect((await tools()).headers.get("Location")).toBe("/");

    // Written straight to the database, as another app process or an operator would.
    // Made cast (staff read the tools; a manager would first be asked for a second factor).
    await db().update(profiles).set({ role: "cast" }).where(eq(profiles.id, member.id));
    expect((await tools()).status).toBe(200);
    expect(await (await profilePage(member.cookie)).text()).toContain(member.firstName);

    await db().update(profiles).set({ firstName: "Renamed" }).where(eq(profiles.id, member.id));
    expect(await (await profilePage(member.cookie)).text()).toContain("Renamed");
    await db().update(profiles).set({ role: "player" }).where(eq(profiles.id, member.id));
    expect((await tools()).headers.get("Location")).toBe("/");

    await db().delete(sessions).where(eq(sessions.userId, member.id));
    expect((await profilePage(member.cookie)).headers.get("Location")).toMatch(/^\/auth/);
  });

  it("end when they expire, and a cookie not signed by the site opens nothing", async () => {
    const player = await signedInMember("player");
    const [session] = await db().select().from(sessions).where(eq(sessions.userId, player.id));
    const forged = player.cookie.replace(
      /=([^.]+)\.[^;]+/,
      (_all, token: string) => `=${token}.${encodeURIComponent("A".repeat(43) + "=")}`,
    );
    expect((await profilePage(forged)).headers.get("Location")).toMatch(/^\/auth/);

    await db()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, session!.id));
    const expired = await profilePage(player.cookie);
    expect(expired.status).toBe(302);
    expect(expired.headers.get("Location")).toMatch(/^\/auth/);
  });
});
