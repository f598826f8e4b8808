import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import { createEvent, createProfile } from "~/platform/db/factories";
import { auditLog, eventAttendance } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { formFieldsOf, postForm } from "../../helpers/forms";
import { inPageOrder, readable, visibleText } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();
const app = withAppServer();

const STARTING = [
  "Dragon's Hoard",
  "Arctic Fox",
  "Weasel Haunt",
  "Wisdom Owls",
  "Clash Stags",
  "Watch Nightingales",
  "Watchtower",
  "Camping",
];

const get = async (path: string, cookie: string) =>
  (await fetch(`${app().url}${path}`, { headers: { Cookie: cookie } })).text();

/** The cabins form's fields as a browser would send them: every row as it stands. */
async function pageFields(cookie: string): Promise<Record<string, string>> {
  return formFieldsOf(await get("/tools/club/cabins", cookie));
}

/** The row of the form that holds `name`. */
const rowOf = (fields: Record<string, string>, name: string) =>
  Number(
    Object.keys(fields)
      .find((key) => key.startsWith("name-") && fields[key] === name)!
      .slice("name-".length),
  );

/** The names the attendance tool's cabin select offers. */
async function offeredOnTool(cookie: string): Promise<string[]> {
  const html = readable(await get("/attendance-tool", cookie));
  const select = html.slice(html.indexOf('name="cabin"'), html.indexOf("</select>", html.indexOf('name="cabin"')));
  return [...select.matchAll(/<option[^>]*>([^<]*)<\/option>/g)].map((match) => match[1]!).slice(1);
}

const saveCabins = (fields: Record<string, string>, cookie: string) =>
  postForm(app().url, "/tools/club/cabins", { ...fields, intent: "save" }, cookie);

describe("the managers' cabins page", () => {
  it("adds, renames, retires and reorders cabins, refuses a stale form, and brings back the starting list", async () => {
    const manager = await signedInMember("manager");
    const fields = await pageFields(manager.cookie);
    expect(Number(fields.count)).toBe(STARTING.length + 1);
    expect(STARTING.map((_, n) => fields[`name-${n}`])).toEqual(STARTING);
    const last = STARTING.length;
    expect(fields[`name-${last}`]).toBe("");

    const typed = {
      ...fields,
      [`name-${last}`]: "Bear Den",
      [`position-${last}`]: "2",
      [`name-${rowOf(fields, "Arctic Fox")}`]: "Arctic Foxes",
      [`retired-${rowOf(fields, "Camping")}`]: "on",
      [`position-${rowOf(fields, "Watchtower")}`]: "1",
    };
    const saved = await saveCabins(typed, manager.cookie);
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Saved: the cabins are now version 1.");
    const now = await currentFacts("cabins");
    expect(now.content.map(({ name, retired }) => (retired ? `${name} (retired)` : name))).toEqual([
      "Watchtower",
      "Dragon's Hoard",
      "Bear Den",
      "Arctic Foxes",
      "Weasel Haunt",
      "Wisdom Owls",
      "Clash Stags",
      "Watch Nightingales",
      "Camping (retired)",
    ]);
    // A renamed cabin keeps its lasting id; a new one gets one from its name.
    expect(now.content.find((c) => c.name === "Arctic Foxes")!.id).toBe("arctic-fox");
    expect(now.content.find((c) => c.name === "Bear Den")!.id).toBe("bear-den");
    // The page shows the saved list, the retired cabin marked, and the version in its history.
    const page = visibleText(await get("/tools/club/cabins", manager.cookie));
    expect(page).toContain("Cabin 9 (retired)");
    expect(page).toContain("Version 1");
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, "club_facts.save"));
    expect(audit!.details).toMatchObject({ kind: "cabins", version: 1 });

    // The same form again: it was opened at version 0.
    const stale = await saveCabins(typed, manager.cookie);
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("Someone else saved a change while you were editing.");
    expect((await currentFacts("cabins")).version).toBe(1);

    const back = await postForm(
      app().url,
      "/tools/club/cabins",
      { intent: "restore", restore: "0", version: "1" },
      manager.cookie,
    );
    expect(await back.text()).toContain("Version 0 is back, saved as version 2.");
    expect((await currentFacts("cabins")).content.map((c) => c.name)).toEqual(STARTING);
  });

  it("refuses two cabins of one name and a blank name, marking the row, and saves nothing", async () => {
    const manager = await signedInMember("manager");
    const before = await currentFacts("cabins");
    const fields = await pageFields(manager.cookie);
    const last = Number(fields.count) - 1;
    const twice = await saveCabins({ ...fields, [`name-${last}`]: " watchtower " }, manager.cookie);
    expect(twice.status).toBe(400);
    const html = readable(await twice.text());
    expect(html).toContain("Some cabins need a change: see the marked fields.");
    // The message is beside the second: the new row, after the Watchtower already in the list.
    const message = html.indexOf("Another cabin has this name: give each its own.");
    expect(message).toBeGreaterThan(html.indexOf(`name="name-${last}"`));
    expect(html.indexOf(`name="name-${rowOf(fields, "Watchtower")}"`)).toBeLessThan(
      html.indexOf(`name="name-${last}"`),
    );
    expect(html).toMatch(
      new RegExp(`aria-invalid="true"[^>]*name="name-${last}"|name="name-${last}"[^>]*aria-invalid="true"`),
    );

    const blank = await saveCabins({ ...fields, "name-2": "  " }, manager.cookie);
    expect(blank.status).toBe(400);
    expect(await blank.text()).toContain("Name the cabin, up to 60 characters.");
    const unassigned = await saveCabins({ ...fields, [`name-${last}`]: "not assigned" }, manager.cookie);
    expect(readable(await unassigned.text())).toContain(
      "“Not assigned” is how a record without a cabin reads: give the cabin another name.",
    );
    expect(await currentFacts("cabins")).toEqual(before);
  });

  it("offers a cabin a manager adds on the attendance tool at once, refuses a retired one, and keeps it on old records", async () => {
    const manager = await signedInMember("manager");
    const event = await createEvent(db(), { title: "Harvest Moon", date: "2025-09-12", status: "past" });
    const early = await createProfile(db(), { firstName: "Early", lastName: "Bird", role: "player" });
    const late = await createProfile(db(), { firstName: "Late", lastName: "Comer", role: "player" });
    const other = await createProfile(db(), { firstName: "Una", lastName: "Signed", role: "player" });
    const add = (userId: string, cabin: string) =>
      postForm(app().url, "/attendance-tool", { eventId: event.id, userId, cabin }, manager.cookie);

    expect(await offeredOnTool(manager.cookie)).toEqual(STARTING);
    expect((await add(early.id, "Bear Den")).status).toBe(400);

    // A manager adds "Bear Den" at the top: the tool offers it first, and it can be given.
    const fields = await pageFields(manager.cookie);
    const last = Number(fields.count) - 1;
    const saved = await saveCabins(
      { ...fields, [`name-${last}`]: "Bear Den", [`position-${last}`]: "1" },
      manager.cookie,
    );
    expect(saved.status).toBe(200);
    expect(await offeredOnTool(manager.cookie)).toEqual(["Bear Den", ...STARTING]);
    const given = await add(early.id, "Bear Den");
    expect(given.status).toBe(200);
    expect(visibleText(await given.text())).toContain("Early Bird Just added No character · Bear Den");
    expect((await add(other.id, "")).status).toBe(200);

    // Then retires it: no longer offered, refused for a new record with a clear message.
    const again = await pageFields(manager.cookie);
    await saveCabins({ ...again, [`retired-${rowOf(again, "Bear Den")}`]: "on" }, manager.cookie);
    expect(await offeredOnTool(manager.cookie)).toEqual(STARTING);
    const refused = await add(late.id, "Bear Den");
    expect(refused.status).toBe(400);
    expect(visibleText(await refused.text())).toContain(
      "Bear Den is retired and no longer given. Please choose a cabin from the list.",
    );
    expect(await db().select().from(eventAttendance).where(eq(eventAttendance.userId, late.id))).toEqual([]);
    expect((await add(late.id, "Arctic Fox")).status).toBe(200);

    // The record made before keeps it: on the tool's list, the attendance page, its CSV and the day's sheet.
    const [kept] = await db().select().from(eventAttendance).where(eq(eventAttendance.userId, early.id));
    expect(kept!.cabin).toBe("Bear Den");
    expect(visibleText(await get(`/attendance-tool?eventId=${event.id}`, manager.cookie))).toContain(
      "Early Bird No character · Bear Den",
    );
    expect(visibleText(await get(`/attendance?event=${event.id}`, manager.cookie))).toContain("Bear Den");
    const csv = await get(`/attendance/${event.id}/csv`, manager.cookie);
    expect(csv).toContain("Bird,Early,No character,Bear Den");
    // The sheet: the cabins offered in the list's order, then the retired one, then no cabin.
    const sheet = visibleText(await get(`/tools/event-day/${event.id}`, manager.cookie));
    expect(inPageOrder(sheet, ["Arctic Fox (1)", "Bear Den (1)", "Not assigned (1)"])).toEqual([
      "Arctic Fox (1)",
      "Bear Den (1)",
      "Not assigned (1)",
    ]);
  });

  it("keeps cast out", async () => {
    const cast = await signedInMember("cast");
    const response = await fetch(`${app().url}/tools/club/cabins`, {
      headers: { Cookie: cast.cookie },
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    const post = await postForm(app().url, "/tools/club/cabins", { count: "0", version: "0" }, cast.cookie);
    expect(post.status).toBeGreaterThanOrEqual(300);
    expect((await currentFacts("cabins")).content.some((c) => c.retired)).toBe(true);
  });
});
