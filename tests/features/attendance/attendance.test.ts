import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { applicationValues, createEvent, createProfile } from "~/platform/db/factories";
import { applications, auditLog, characters, eventAttendance } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";
import { visibleText } from "../../helpers/html";

const db = withTestDatabase();
const app = withAppServer();

describe("attendance", () => {
  it("finds members by name or email (2+ characters, at most 10) and records them paid, once, with a cabin", async () => {
    const manager = await signedInMember("manager");
    const event = await createEvent(db(), { title: "Blood Moon", date: "2025-06-13", status: "past" });
    const member = await createProfile(db(), {
      firstName: "Ezekiel",
      lastName: "Pickett",
      email: "zeke@example.com",
      role: "player",
    });
    await db().insert(characters).values({
      userId: member.id,
      characterName: "Old Zeke",
      faction: "Homesteader",
      job: "Hunter / Trapper",
      backstory: "x",
    });
    for (let i = 0; i < 12; i++)
      await createProfile(db(), { firstName: `Ezra${i}`, lastName: "Crowd", role: "player" });

    const search = async (q: string) =>
      (
        await fetch(`${app().url}/attendance-tool?q=${encodeURIComponent(q)}`, { headers: { Cookie: manager.cookie } })
      ).text();
    expect(await search("PICK")).toContain("Old Zeke · zeke@example.com");
    expect(await search("z")).not.toContain("Old Zeke");
    expect((await search("crowd")).match(/name="userId"/g)).toHaveLength(10);

    const add = (fields: Record<string, string>) => postForm(app().url, "/attendance-tool", fields, manager.cookie);
    expect(await (await add({ eventId: event.id, userId: "" })).text()).toContain(
      "Please select both an event and a user",
    );
    expect((await add({ eventId: event.id, userId: member.id, cabin: "Penthouse" })).status).toBe(400);
    const added = await add({ eventId: event.id, userId: member.id, cabin: "Arctic Fox" });
    // The specification's words, then who and where.
    const addedText = visibleText(await added.text());
    expect(addedText).toContain(
      "Attendance added successfully! Ezekiel Pickett is registered for Blood Moon (Friday, June 13, 2025).",
    );
    // The event's registrations beside the form, the member just added marked.
    expect(addedText).toContain(
      "Registered Blood Moon (Friday, June 13, 2025): 1 registered Ezekiel Pickett Just added Old Zeke · Arctic Fox",
    );
    const again = await add({ eventId: event.id, userId: member.id, cabin: "Watchtower" });
    expect(again.status).toBe(409);
    expect(visibleText(await again.text())).toContain(
      "Failed to add attendance. The user might already be registered for this event. Ezekiel Pickett is already registered for Blood Moon (Friday, June 13, 2025).",
    );
    const rows = await db().select().from(eventAttendance).where(eq(eventAttendance.userId, member.id));
    expect(rows).toEqual([
      expect.objectContaining({
        cabin: "Arctic Fox",
        paymentStatus: "paid",
        characterName: "Old Zeke",
        createdBy: manager.id,
      }),
    ]);
    expect((await db().select().from(auditLog).where(eq(auditLog.subjectId, member.id))).map((a) => a.action)).toEqual([
      "attendance.add",
    ]);
  });

  it("keeps cast out of the attendance tool but lets them read and export attendance", async () => {
    const cast = await signedInMember("cast");
    const event = await createEvent(db(), {
      title: "First Frost: =HYPERLINK(evil)",
      date: "2025-11-14",
      status: "past",
    });
    expect(
      (await postForm(app().url, "/attendance-tool", { eventId: event.id, userId: cast.id }, cast.cookie)).status,
    ).toBe(403);

    const people = [
      { first: "Clara", last: "Voss", character: "Sister Clara", cabin: "Watchtower" as const },
      { first: "Amos", last: "Voss", character: null, cabin: null },
      { first: "Jeb", last: "Bright", character: "=cmd|' /C calc'!A0", cabin: "Camping" as const },
    ];
    for (const person of people) {
      const profile = await createProfile(db(), { firstName: person.first, lastName: person.last, role: "player" });
      await db()
        .insert(eventAttendance)
        .values({ userId: profile.id, eventId: event.id, cabin: person.cabin, characterName: person.character });
    }
    const unpaid = await createProfile(db(), { firstName: "Nobody", lastName: "Unpaid", role: "player" });
    await db().insert(eventAttendance).values({ userId: unpaid.id, eventId: event.id, paymentStatus: "unpaid" });

    const page = await (
      await fetch(`${app().url}/attendance?event=${event.id}`, { headers: { Cookie: cast.cookie } })
    ).text();
    expect(page).toContain("3 paid");
    expect(page).not.toContain("Unpaid");

    const csv = await fetch(`${app().url}/attendance/${event.id}/csv`, { headers: { Cookie: cast.cookie } });
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("Content-Disposition")).toContain(
      encodeURIComponent("First Frost HYPERLINK evil 2025-11-14 attendance.csv"),
    );
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\n");
    expect(lines).toEqual([
      "Last Name,First Name,Character Name,Cabin",
      "Bright,Jeb,'=cmd|' /C calc'!A0,Camping",
      "Voss,Amos,No character,Not assigned",
      "Voss,Clara,Sister Clara,Watchtower",
    ]);
    const player = await signedInMember("player");
    expect(
      (
        await fetch(`${app().url}/attendance/${event.id}/csv`, {
          headers: { Cookie: player.cookie },
          redirect: "manual",
        })
      ).status,
    ).toBe(302);
  });

  it("answers malformed event ids with the product's message or a 404, never a server error", async () => {
    const manager = await signedInMember("manager");
    const dashes = "-".repeat(36);
    const add = await postForm(app().url, "/attendance-tool", { eventId: dashes, userId: manager.id }, manager.cookie);
    expect(add.status).toBe(400);
    expect(await add.text()).toContain("Please select both an event and a user");
    expect((await fetch(`${app().url}/attendance/${dashes}/csv`, { headers: { Cookie: manager.cookie } })).status).toBe(
      404,
    );
    expect(
      (await fetch(`${app().url}/attendance?event=${dashes}`, { headers: { Cookie: manager.cookie } })).status,
    ).toBe(200);
    expect(
      (await fetch(`${app().url}/view-pels?event=${dashes}`, { headers: { Cookie: manager.cookie } })).status,
    ).toBe(200);
  });

  it("warns before registering an applicant or a rejected applicant, and registers them once confirmed", async () => {
    const manager = await signedInMember("manager");
    const event = await createEvent(db(), { title: "Claim Day", date: "2025-08-08", status: "past" });
    const applicant = await createProfile(db(), { firstName: "Hattie", lastName: "Newcome", role: "applicant" });
    const rejected = await createProfile(db(), { firstName: "Rufus", lastName: "Turnedaway", role: "applicant" });
    await db()
      .insert(applications)
      .values(applicationValues(rejected, { status: "rejected" }));
    const add = (fields: Record<string, string>) => postForm(app().url, "/attendance-tool", fields, manager.cookie);
    const rowsOf = async (userId: string) =>
      db().select().from(eventAttendance).where(eq(eventAttendance.userId, userId));

    for (const [member, warning] of [
      [applicant, "Hattie Newcome is still an applicant: their application has not been accepted."],
      [rejected, "Rufus Turnedaway&#x27;s application was rejected."],
    ] as const) {
      const first = await add({ eventId: event.id, userId: member.id, cabin: "Camping" });
      expect(first.status).toBe(409);
      const page = await first.text();
      expect(page).toContain(warning);
      expect(page).toContain(`Nothing was recorded. Register ${member.firstName} ${member.lastName} anyway?`);
      expect(page).not.toContain("Attendance added successfully!");
      // The confirmation is a form of its own carrying the same choices, so it needs no JavaScript.
      const confirmForm = page.slice(page.indexOf(warning), page.indexOf("Register anyway"));
      for (const hidden of [
        `name="eventId" value="${event.id}"`,
        `name="userId" value="${member.id}"`,
        'name="cabin" value="Camping"',
        'name="confirm" value="yes"',
      ])
        expect(confirmForm).toContain(hidden);
      expect(await rowsOf(member.id)).toEqual([]);

      const confirmed = await add({ eventId: event.id, userId: member.id, cabin: "Camping", confirm: "yes" });
      expect(confirmed.status).toBe(200);
      expect(await confirmed.text()).toContain("Attendance added successfully!");
      expect(await rowsOf(member.id)).toEqual([expect.objectContaining({ cabin: "Camping", paymentStatus: "paid" })]);
    }
    const log = await (await fetch(`${app().url}/tools?tab=audit`, { headers: { Cookie: manager.cookie } })).text();
    expect(log).toContain("cabin Camping, confirmed although an applicant");
    expect(log).toContain("cabin Camping, confirmed although their application was rejected");
    // A player is registered at once, as before.
    const player = await createProfile(db(), { firstName: "Ivy", lastName: "Settled", role: "player" });
    expect((await add({ eventId: event.id, userId: player.id })).status).toBe(200);
    expect(await rowsOf(player.id)).toHaveLength(1);
  });

  it("without JavaScript, keeps the event and cabin through a search and, after an add, keeps only the event", async () => {
    const manager = await signedInMember("manager");
    const event = await createEvent(db(), { title: "Silver Rush", date: "2025-10-10", status: "past" });
    const first = await createProfile(db(), { firstName: "Abner", lastName: "Cabinmate", role: "player" });
    await createProfile(db(), { firstName: "Bessie", lastName: "Cabinmate", role: "player" });
    const selected = (page: string, pattern: string) => new RegExp(pattern).test(page);
    const eventChosen = `<option value="${event.id}" selected=""`;

    // The Search button sends the whole form by GET: the event and cabin chosen come back chosen.
    const search = await fetch(`${app().url}/attendance-tool?eventId=${event.id}&q=cabinmate&cabin=Arctic+Fox`, {
      headers: { Cookie: manager.cookie },
    });
    const searched = await search.text();
    expect(searched).toContain(eventChosen);
    expect(selected(searched, '<option selected="">Arctic Fox</option>')).toBe(true);
    expect(searched).not.toMatch(/type="radio"[^>]*checked/);

    // The add is posted to the search's address, as a browser without JavaScript does.
    const added = await postForm(
      app().url,
      `/attendance-tool?eventId=${event.id}&q=cabinmate&cabin=Arctic+Fox&userId=${first.id}`,
      { eventId: event.id, q: "cabinmate", userId: first.id, cabin: "Arctic Fox" },
      manager.cookie,
    );
    const page = await added.text();
    expect(page).toContain("Attendance added successfully!");
    expect(page).toContain(eventChosen);
    expect(page).not.toMatch(/type="radio"[^>]*checked/);
    expect(page).not.toContain('<option selected="">Arctic Fox</option>');
    expect(page).toContain('<option value="" selected="">Not assigned</option>');
    const [row] = await db().select().from(eventAttendance).where(eq(eventAttendance.userId, first.id));
    expect(row!.cabin).toBe("Arctic Fox");
  });

  it("lists the chosen event's registrations, paid or not, each leading to the member's page", async () => {
    const manager = await signedInMember("manager");
    const event = await createEvent(db(), { title: "Gold Fever", date: "2025-09-12", status: "past" });
    const other = await createEvent(db(), { title: "Elsewhere", date: "2025-09-19", status: "past" });
    const paid = await createProfile(db(), { firstName: "Nell", lastName: "Ambrose", role: "player" });
    const unpaid = await createProfile(db(), { firstName: "Otis", lastName: "Bell", role: "player" });
    const away = await createProfile(db(), { firstName: "Pru", lastName: "Away", role: "player" });
    await db()
      .insert(eventAttendance)
      .values([
        { userId: unpaid.id, eventId: event.id, paymentStatus: "unpaid" },
        { userId: paid.id, eventId: event.id, cabin: "Watchtower", characterName: "Nell the Smith" },
        { userId: away.id, eventId: other.id },
      ]);
    const open = async (query: string) =>
      (await fetch(`${app().url}/attendance-tool${query}`, { headers: { Cookie: manager.cookie } })).text();

    const html = await open(`?eventId=${event.id}`);
    expect(visibleText(html)).toContain(
      "Registered Gold Fever (Friday, September 12, 2025): 2 registered Nell Ambrose Nell the Smith · Watchtower Otis Bell Not paid No character · Not assigned",
    );
    expect(html).not.toContain("Pru Away");
    expect(html).toContain(`href="/tools/members/${paid.id}"`);
    // No event chosen, or one that is no event: the list asks for one.
    for (const query of ["", "?eventId=not-an-id", `?eventId=${crypto.randomUUID()}`])
      expect(visibleText(await open(query))).toContain("Registered Choose an event to see who is registered for it.");
    // Without JavaScript the form posts to the page's own address and opens at the answer, under the button.
    expect(html).toMatch(/<form [^>]*action="\/attendance-tool\?eventId=[\w-]+#attendance-answer"/);
  });

  it("names each event's CSV file with its date, so two events with one title give two names", async () => {
    const cast = await signedInMember("cast");
    const spring = await createEvent(db(), { title: "Homecoming", date: "2025-04-11", status: "past" });
    const autumn = await createEvent(db(), { title: "Homecoming", date: "2025-10-17", status: "past" });
    const nameOf = async (eventId: string) =>
      (await fetch(`${app().url}/attendance/${eventId}/csv`, { headers: { Cookie: cast.cookie } })).headers.get(
        "Content-Disposition",
      );
    expect(await nameOf(spring.id)).toBe(
      `attachment; filename="Homecoming 2025-04-11 attendance.csv"; filename*=UTF-8''${encodeURIComponent("Homecoming 2025-04-11 attendance.csv")}`,
    );
    expect(await nameOf(autumn.id)).toContain('filename="Homecoming 2025-10-17 attendance.csv"');
  });

  it("counts the audit log's entries in proper English", async () => {
    const manager = await signedInMember("manager");
    await db()
      .insert(auditLog)
      .values(Array.from({ length: 11 }, () => ({ actorId: manager.id, action: "emergency_contacts.view" })));
    const total = (await db().select({ id: auditLog.id }).from(auditLog)).length;
    const page = await (await fetch(`${app().url}/tools?tab=audit`, { headers: { Cookie: manager.cookie } })).text();
    expect(page).toContain(`${total} entries`);
    expect(page).not.toContain("entrys");
  });
});
