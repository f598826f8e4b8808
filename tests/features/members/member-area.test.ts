import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { INVALID_JOB } from "~/features/members/character.limits";
import { MESSAGES } from "~/web/forms/messages";
import { INVALID_PHONE } from "~/features/members/profile.form";
import { applicationValues, createEvent } from "~/platform/db/factories";
import { clubToday } from "~/lib/dates";
import { applications, characters, eventAttendance, events, outbox, profiles } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();
const character = (overrides: Record<string, string> = {}) => ({
  characterName: "Jebediah Holt",
  faction: "US Survey Corp",
  job: "Soldier",
  backstory: "Came west with the surveyors and never left.",
  ...overrides,
});

describe("the member area", () => {
  // Notices are queued (nothing listens at this address).
  const app = withAppServer({ DISCORD_WEBHOOK_URL: "http://127.0.0.1:9/webhook" });

  it("creates, then updates, the player's one character, with a notice each time", async () => {
    const player = await signedInMember("player");
    const first = await postForm(app().url, "/character", character(), player.cookie);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("Character Created!");
    const second = await postForm(
      app().url,
      "/character",
      character({ faction: "Homesteader", job: "Miner", userId: "someone-else" }),
      player.cookie,
    );
    expect(await second.text()).toContain("Character Saved!");
    const rows = await db().select().from(characters).where(eq(characters.userId, player.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ faction: "Homesteader", job: "Miner" });
    const notices = (await db().select().from(outbox).where(eq(outbox.kind, "discord"))).map((n) =>
      String(n.payload.content),
    );
    expect(notices.filter((n) => n.includes("Jebediah Holt"))).toHaveLength(2);
  });

  it("refuses a job outside the faction, unknown values and blanks, saving nothing", async () => {
    const player = await signedInMember("player");
    const cases: [Record<string, string>, string][] = [
      [character({ faction: "Homesteader", job: "Soldier" }), INVALID_JOB],
      [character({ faction: "US Survey Corp", job: "Natural Scientist" }), INVALID_JOB],
      [character({ faction: "Pinkertons" }), MESSAGES.required],
      [character({ job: "Sheriff" }), MESSAGES.required],
      [character({ characterName: " " }), MESSAGES.required],
      [character({ backstory: "x".repeat(100_000) }), "Please keep this to 20,000 characters or fewer"],
    ];
    for (const [fields, message] of cases) {
      const response = await postForm(app().url, "/character", fields, player.cookie);
      expect(response.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      const html = await response.text();
      expect(html).toContain(MESSAGES.requiredAll);
      expect(html).toContain(message);
    }
    expect(await db().select().from(characters).where(eq(characters.userId, player.id))).toEqual([]);
  });

  it("keeps applicants out of the character builder", async () => {
    const applicant = await signedInMember("applicant");
    expect((await postForm(app().url, "/character", character(), applicant.cookie)).status).toBe(403);
    expect(
      (await postForm(app().url, "/profile", { intent: "backstory", backstory: "mine now" }, applicant.cookie)).status,
    ).toBe(403);
    expect(await db().select().from(characters).where(eq(characters.userId, applicant.id))).toEqual([]);
  });

  it("saves the member's own emergency contact, with a phone number that can be called", async () => {
    const member = await signedInMember("applicant");
    const other = await signedInMember("applicant");
    const bad = await postForm(
      app().url,
      "/profile",
      { intent: "contact", name: "Ma Holt", phone: "not a phone" },
      member.cookie,
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(INVALID_PHONE);
    const good = await postForm(
      app().url,
      "/profile",
      { intent: "contact", name: "Ma Holt", phone: "(860) 555-0142", id: other.id, userId: other.id },
      member.cookie,
    );
    expect(good.status).toBe(200);
    expect(await good.text()).toContain("Changes saved successfully!");
    const [mine] = await db()
      .select({ contact: profiles.emergencyContact })
      .from(profiles)
      .where(eq(profiles.id, member.id));
    expect(mine!.contact).toEqual({ name: "Ma Holt", phone: "+1 860 555 0142" });
    const [theirs] = await db()
      .select({ contact: profiles.emergencyContact })
      .from(profiles)
      .where(eq(profiles.id, other.id));
    expect(theirs!.contact).toBeNull();
  });

  it("edits the backstory in place and counts the events the member survived", async () => {
    const player = await signedInMember("player");
    await postForm(app().url, "/character", character(), player.cookie);
    const response = await postForm(
      app().url,
      "/profile",
      { intent: "backstory", backstory: "A new chapter." },
      player.cookie,
    );
    expect(await response.text()).toContain("Changes saved successfully!");
    const [row] = await db().select().from(characters).where(eq(characters.userId, player.id));
    expect(row!.backstory).toBe("A new chapter.");
    for (const date of ["2025-05-16", "2025-09-12"]) {
      const event = await createEvent(db(), { date, status: "past" });
      await db()
        .insert(eventAttendance)
        .values({ userId: player.id, eventId: event.id, characterName: "Jebediah Holt" });
    }
    const page = await (
      await fetch(`${app().url}/profile?tab=character`, { headers: { Cookie: player.cookie } })
    ).text();
    expect(page).toContain('data-testid="events-survived">2<');
    expect(page).toContain("A new chapter.");
  });

  it("counts as survived only events whose day has passed and that were not cancelled, even once kept in memory", async () => {
    const player = await signedInMember("player");
    await postForm(app().url, "/character", character(), player.cookie);
    const today = clubToday();
    const day = (offset: number) =>
      new Date(Date.parse(`${today}T12:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    const attend = async (date: string, status: "past" | "future" | "cancelled") => {
      const event = await createEvent(db(), { date, status });
      await db()
        .insert(eventAttendance)
        .values({ userId: player.id, eventId: event.id, characterName: "Jebediah Holt" });
      return event;
    };
    const held = await attend(day(-30), "past");
    await attend(day(-10), "cancelled");
    await attend(day(0), "future");
    await attend(day(2), "future");
    const survived = async () =>
      (await (await fetch(`${app().url}/profile?tab=character`, { headers: { Cookie: player.cookie } })).text()).match(
        /data-testid="events-survived">(\d+)</,
      )?.[1];
    // Today's event is not over yet, and the one in two days has not begun.
    expect(await survived()).toBe("1");
    expect(await survived()).toBe("1");

    // Three days on, with no write in between: the profile kept in memory must still count both.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 3 * 86_400_000 });
    try {
      expect(await survived()).toBe("3");
    } finally {
      vi.useRealTimers();
    }
    // Cancelling an event (a change to events alone) takes it off the count.
    await db().update(events).set({ status: "cancelled" }).where(eq(events.id, held.id));
    expect(await survived()).toBe("0");
  });

  it("shows on the next request a change made elsewhere to what the profile page keeps in memory", async () => {
    const player = await signedInMember("player");
    await postForm(app().url, "/character", character(), player.cookie);
    await db()
      .insert(applications)
      .values(applicationValues({ ...player, lastName: "Tester" }));
    const profilePage = async (tab: string) =>
      (await fetch(`${app().url}/profile?tab=${tab}`, { headers: { Cookie: player.cookie } })).text();
    expect(await profilePage("character")).toContain('data-testid="events-survived">0<');
    expect(await profilePage("application")).toContain('data-testid="application-status">pending<');

    // Written straight to the database, as a manager's request in another app process would.
    await db().update(characters).set({ backstory: "Rewritten by the cast." }).where(eq(characters.userId, player.id));
    expect(await profilePage("character")).toContain("Rewritten by the cast.");
    const event = await createEvent(db(), { date: "2025-05-16", status: "past" });
    await db().insert(eventAttendance).values({ userId: player.id, eventId: event.id, characterName: "Jebediah Holt" });
    expect(await profilePage("character")).toContain('data-testid="events-survived">1<');
    await db().update(applications).set({ status: "accepted" }).where(eq(applications.userId, player.id));
    expect(await profilePage("application")).toContain('data-testid="application-status">accepted<');
    await db()
      .update(profiles)
      .set({ emergencyContact: { name: "Ada Holt", phone: "+1 413 555 0100" } })
      .where(eq(profiles.id, player.id));
    expect(await profilePage("profile")).toContain("Ada Holt");
  });

  it("tells an applicant that character creation comes after acceptance", async () => {
    const applicant = await signedInMember("applicant");
    const page = await (await fetch(`${app().url}/profile`, { headers: { Cookie: applicant.cookie } })).text();
    expect(page).toContain("Character Creation Unavailable");
    expect(page).not.toContain("My Character");
  });
});
