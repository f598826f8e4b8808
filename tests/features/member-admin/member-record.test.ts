import { describe, expect, it } from "vitest";
import { RECORD_LIST_MAX, memberRecord } from "~/features/member-admin/member-record.server";
import { attendanceValues, characterValues, createEvent, createProfile, orderValues } from "~/platform/db/factories";
import { characters, eventAttendance, merchantOrders } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { visibleText } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";

/**
 * The member's part in the game on the managers' page of one member (/tools/members/:id): their
 * character, the events they were registered for with their cabins, and their merchant orders.
 */
const db = withTestDatabase();
const app = withAppServer();

const page = async (path: string, cookie: string) =>
  visibleText(await (await fetch(app().url + path, { headers: { Cookie: cookie } })).text());

describe("a member's record on the managers' page", () => {
  it("shows the character, each event with its cabin (newest first) and each order with its state", async () => {
    const manager = await signedInMember("manager");
    const member = await createProfile(db(), { firstName: "Hester", lastName: "Quill", role: "player" });
    const other = await createProfile(db(), { firstName: "Other", lastName: "Person", role: "player" });
    await db()
      .insert(characters)
      .values(
        characterValues(member.id, {
          characterName: "Widow Quill",
          faction: "Homesteader",
          job: "Hunter / Trapper",
          backstory: "Came west after the war.",
        }),
      );
    const spring = await createEvent(db(), { title: "Spring Thaw", date: "2025-04-11", status: "past" });
    const autumn = await createEvent(db(), { title: "Harvest Moon", date: "2025-10-17", status: "past" });
    const winter = await createEvent(db(), { title: "First Snow", date: "2026-01-16", status: "cancelled" });
    await db()
      .insert(eventAttendance)
      .values([
        attendanceValues(member.id, spring.id, { cabin: "Arctic Fox", characterName: "Widow Quill" }),
        attendanceValues(member.id, autumn.id, { cabin: null }),
        attendanceValues(member.id, winter.id, { cabin: "Camping", paymentStatus: "unpaid" }),
        attendanceValues(other.id, spring.id, { cabin: "Watchtower" }),
      ]);
    await db()
      .insert(merchantOrders)
      .values([
        orderValues(member.id, spring.id, {
          items: { meat: 2 },
          totalPrice: "6.00",
          createdAt: new Date("2025-04-01T15:00:00Z"),
          handedOutAt: new Date("2025-04-12T14:00:00Z"),
        }),
        orderValues(member.id, autumn.id, {
          items: { coal: 3 },
          totalPrice: "15.00",
          createdAt: new Date("2025-10-01T15:00:00Z"),
        }),
        orderValues(other.id, autumn.id, { items: { meat: 9 }, totalPrice: "27.00" }),
      ]);

    const text = await page(`/tools/members/${member.id}`, manager.cookie);
    expect(text).toContain("Character Name Widow Quill Faction Homesteader Job Hunter / Trapper");
    expect(text).toContain("Came west after the war.");
    // Newest event first, each with its cabin; the unpaid and cancelled one says so.
    expect(text).toMatch(
      /Attendance First Snow Friday, January 16, 2026 Cancelled Not paid Cabin: Camping Harvest Moon Friday, October 17, 2025 Cabin: Not assigned Spring Thaw Friday, April 11, 2025 Cabin: Arctic Fox · as Widow Quill Merchant orders/,
    );
    expect(text).not.toContain("Watchtower");
    // Newest order first, with what it holds, what it costs and whether it was handed out.
    expect(text).toMatch(
      /Merchant orders Harvest Moon Friday, October 17, 2025 3 × Coal Total: \$15\.00 Hopewell Dollars Ordered Oct 1, 2025, [^·]+ Not handed out yet Spring Thaw Friday, April 11, 2025 2 × Meat Total: \$6\.00 Hopewell Dollars Ordered Apr 1, 2025, [^·]+ Handed out Apr 12, 2025/,
    );
    expect(text).not.toContain("9 × Meat");

    // A member with none of these says so in each panel.
    const newcomer = await createProfile(db(), { firstName: "New", lastName: "Comer", role: "applicant" });
    const empty = await page(`/tools/members/${newcomer.id}`, manager.cookie);
    expect(empty).toContain("Character New Comer has no character yet.");
    expect(empty).toContain("Attendance New Comer has not been registered for an event.");
    expect(empty).toContain("Merchant orders New Comer has placed no merchant orders.");
  });

  it("lists at most the latest 50 orders and says when there are more", async () => {
    const member = await createProfile(db(), { role: "player" });
    const event = await createEvent(db(), { status: "past" });
    await db()
      .insert(merchantOrders)
      .values(
        Array.from({ length: RECORD_LIST_MAX + 1 }, (_, i) =>
          orderValues(member.id, event.id, { createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)) }),
        ),
      );
    const record = await memberRecord(member.id);
    expect(record.orders.rows).toHaveLength(RECORD_LIST_MAX);
    expect(record.orders.more).toBe(true);
    expect(record.orders.rows[0]!.createdAt).toBe(new Date(Date.UTC(2025, 0, 1, 0, RECORD_LIST_MAX)).toISOString());
    expect(record.attendance).toEqual({ rows: [], more: false });
    expect(record.character).toBeNull();
  });

  it("links each name on the player and cast lists to the member's page for a manager, not for cast", async () => {
    const manager = await signedInMember("manager");
    const cast = await signedInMember("cast");
    const player = await createProfile(db(), { firstName: "Linked", lastName: "Player", role: "player" });
    const list = async (cookie: string, tab: string) =>
      (await fetch(`${app().url}/tools?tab=${tab}&q=Linked`, { headers: { Cookie: cookie } })).text();
    expect(await list(manager.cookie, "players")).toMatch(
      new RegExp(`<a [^>]*href="/tools/members/${player.id}"[^>]*>Linked Player</a>`),
    );
    const castView = await list(cast.cookie, "players");
    expect(castView).toContain("Linked Player");
    expect(castView).not.toContain(`href="/tools/members/${player.id}"`);
    const castList = await (
      await fetch(`${app().url}/tools?tab=cast&q=${cast.firstName}`, { headers: { Cookie: manager.cookie } })
    ).text();
    expect(castList).toMatch(new RegExp(`<a [^>]*href="/tools/members/${cast.id}"[^>]*>${cast.firstName} cast</a>`));
  });
});
