import { describe, expect, it } from "vitest";
import { calendarFeedPath } from "~/features/events/calendar-feed.server";
import { addDays, clubToday, formatEventDate } from "~/lib/dates";
import { attendanceValues, createEvent, orderValues, pelValues } from "~/platform/db/factories";
import { costumePhotos, costumeReviews, eventAttendance, merchantOrders, pels } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { signedInMember } from "../../helpers/members";
import { visibleText } from "../../helpers/html";

/** Every query the app makes, to count how the events page reads a member's rows. */
const queries: string[] = [];
const db = withTestDatabase({ logger: { logQuery: (query) => queries.push(query) } });

/** The page as a person reads it: tags and React's text separators gone, spaces collapsed. */

/** The text of the listed event titled `title`, from its heading to the end of its panel. */
function eventPanel(html: string, title: string): string {
  const start = html.indexOf(`>${title}</h2>`);
  expect(start, `${title} is listed`).toBeGreaterThan(-1);
  return visibleText(html.slice(start + 1, html.indexOf("</li>", start)));
}

describe("the events page for a signed-in member", () => {
  const app = withAppServer();
  const page = async (cookie: string, path = "/events") => {
    const response = await fetch(`${app().url}${path}`, { headers: { Cookie: cookie } });
    expect(response.status).toBe(200);
    return response.text();
  };
  const today = clubToday();

  it("gives each event's time and place from the game's facts, in the club's time zone", async () => {
    await createEvent(db(), { title: "Summer Time Night", date: "2027-06-18", status: "future" });
    await createEvent(db(), { title: "Standard Time Night", date: "2027-01-15", status: "future" });
    const member = await signedInMember("player");
    const html = await page(member.cookie);
    const summer = eventPanel(html, "Summer Time Night");
    expect(summer).toContain("Venue opens 2:00 PM EDT");
    expect(summer).toContain("Game starts 10:00 PM EDT ; arrive by 9:00 PM EDT");
    expect(summer).toContain("Place Taber Creek, 42 Cat Hollow Road, Union, CT 06076");
    expect(eventPanel(html, "Standard Time Night")).toContain("Venue opens 2:00 PM EST");
    expect(html).toMatch(/<time datetime="2027-06-18T14:00:00-04:00">2:00 PM EDT<\/time>/i);
    expect(html).toMatch(
      /href="https:\/\/www\.openstreetmap\.org\/directions\?route=%3B41\.9907%2C-72\.1573[^"]*" target="_blank" rel="noopener noreferrer">Directions/,
    );
    expect(html).toMatch(/href="\/events\/[0-9a-f-]{36}\/calendar\.ics" class="btn btn-secondary" download(="")?>/);
    // The member's own feed address to subscribe to.
    const feed = await calendarFeedPath(member.id);
    expect(feed).toMatch(new RegExp(`^/events/calendar/${member.id}/[\\w-]{43}\\.ics$`));
    expect(html).toContain(`href="webcal://${new URL(app().url).host}${feed}"`);
    expect(html).toContain(`<code>${app().url}${feed}</code>`);
  });

  it("shows the member's own registration, costume photo due date, orders and letter, and nobody else's", async () => {
    const member = await signedInMember("player");
    const other = await signedInMember("player");
    const ahead = addDays(today, 40);
    const registered = await createEvent(db(), { title: "Registered Night", date: ahead, status: "future" });
    await createEvent(db(), { title: "Unregistered Night", date: addDays(today, 41), status: "future" });
    const unpaid = await createEvent(db(), { title: "Unpaid Night", date: addDays(today, 42), status: "future" });
    // Held last week (its weekend over) but not yet marked past by a manager: still listed.
    const heldNoLetter = await createEvent(db(), { title: "Held Night", date: addDays(today, -10), status: "future" });
    const heldWithLetter = await createEvent(db(), {
      title: "Written Night",
      date: addDays(today, -11),
      status: "future",
    });
    // This weekend: under way, so no letter is due yet.
    const underWay = await createEvent(db(), { title: "Under Way Night", date: addDays(today, -1), status: "future" });
    await db()
      .insert(eventAttendance)
      .values([
        attendanceValues(member.id, registered.id, { cabin: "Watchtower" }),
        attendanceValues(member.id, unpaid.id, { paymentStatus: "unpaid", cabin: null }),
        attendanceValues(member.id, heldNoLetter.id),
        attendanceValues(member.id, heldWithLetter.id),
        attendanceValues(member.id, underWay.id, { cabin: "Camping" }),
        attendanceValues(other.id, heldNoLetter.id),
      ]);
    await db()
      .insert(merchantOrders)
      .values([
        orderValues(member.id, registered.id, { items: { meat: 2 }, totalPrice: "6.00" }),
        orderValues(member.id, registered.id, { items: { bandages: 1 }, totalPrice: "22.50" }),
        orderValues(other.id, registered.id, { items: { coal: 1 }, totalPrice: "5.00" }),
      ]);
    await db()
      .insert(pels)
      .values([pelValues(member.id, heldWithLetter.id), pelValues(other.id, heldNoLetter.id)]);

    const html = await page(member.cookie);
    const due = formatEventDate(addDays(ahead, -14));
    expect(eventPanel(html, "Registered Night")).toContain(
      `Your status for Registered Night, ${formatEventDate(ahead)} Registration Registered Costume photo Due ${due} ; No photo yet Merchant orders 2 orders, $28.50 in all`,
    );
    expect(eventPanel(html, "Registered Night")).not.toContain("Post-event letter");
    // The page leads with the events the member is on the list of, soonest first, with the cabin:
    // those ahead and the one under way, not those whose weekend is over.
    expect(visibleText(html)).toContain(
      `You Are Registered Under Way Night , ${formatEventDate(underWay.date)} · Cabin: Camping Registered Night , ${formatEventDate(ahead)} · Cabin: Watchtower Unpaid Night , ${formatEventDate(unpaid.date)} · Cabin not given yet · payment not recorded`,
    );
    expect(html).toContain(`href="/events#event-${registered.id}"`);
    // Each event's card starts with it, beside the title.
    expect(eventPanel(html, "Registered Night")).toContain(
      `Registered Night ${formatEventDate(ahead)} You are registered for Registered Night, ${formatEventDate(ahead)} Cabin: Watchtower Add to Calendar`,
    );
    expect(eventPanel(html, "Unpaid Night")).toContain(
      `You are on the list; payment not recorded for Unpaid Night, ${formatEventDate(unpaid.date)} Cabin not given yet`,
    );
    expect(eventPanel(html, "Unregistered Night")).not.toContain("You are");
    // A letter due links to the form opened on its event.
    expect(html).toContain(`href="/pels?event=${heldNoLetter.id}"`);
    // The member's costume standing is kept between visits, yet a photo and a verdict show at once.
    await db()
      .insert(costumePhotos)
      .values({
        userId: member.id,
        eventId: registered.id,
        fileKey: `costumes/${member.id}/a.jpg`,
        thumbKey: `costumes/${member.id}/a-thumb.jpg`,
        fileType: "image/jpeg",
        fileSize: 4,
        width: 1,
        height: 1,
        createdAt: new Date(Date.now() - 60_000),
      });
    expect(eventPanel(await page(member.cookie), "Registered Night")).toContain(`Due ${due} ; Waiting for review`);
    await db().insert(costumeReviews).values({ userId: member.id, eventId: registered.id, verdict: "approved" });
    expect(eventPanel(await page(member.cookie), "Registered Night")).toContain(`Due ${due} ; Approved`);
    expect(eventPanel(html, "Unregistered Night")).toContain("Registration Not registered");
    expect(eventPanel(html, "Unregistered Night")).toContain("Merchant orders None");
    expect(eventPanel(html, "Unpaid Night")).toContain("Registration On the list; payment not recorded");
    const held = eventPanel(html, "Held Night");
    expect(held).toContain("Registration Registered");
    expect(held).not.toContain("Costume photo");
    expect(held).toContain("Post-event letter PEL due · Write your post-event letter for Held Night");
    expect(eventPanel(html, "Written Night")).toContain("Post-event letter Sent");
    expect(eventPanel(html, "Under Way Night")).not.toContain("Post-event letter");

    // The other member sent a letter for Held Night and ordered once: their page says so, not the first's.
    const theirs = await page(other.cookie);
    expect(eventPanel(theirs, "Held Night")).toContain("Post-event letter Sent");
    expect(eventPanel(theirs, "Registered Night")).toContain("Registration Not registered");
    expect(eventPanel(theirs, "Registered Night")).toContain("Merchant orders 1 order, $5.00 in all");
  });

  it("reminds a member of a letter due for an event held lately that is no longer listed", async () => {
    const member = await signedInMember("player");
    const recent = await createEvent(db(), { title: "Recently Past Night", date: addDays(today, -12), status: "past" });
    const written = await createEvent(db(), {
      title: "Recently Written Night",
      date: addDays(today, -12),
      status: "past",
    });
    const old = await createEvent(db(), { title: "Long Past Night", date: addDays(today, -60), status: "past" });
    const missed = await createEvent(db(), { title: "Missed Night", date: addDays(today, -12), status: "past" });
    const cancelled = await createEvent(db(), {
      title: "Cancelled Night",
      date: addDays(today, -12),
      status: "cancelled",
    });
    await db()
      .insert(eventAttendance)
      .values([recent, written, old, cancelled].map((event) => attendanceValues(member.id, event.id)));
    await db().insert(pels).values(pelValues(member.id, written.id));
    expect(missed.title).toBe("Missed Night");

    const text = visibleText(await page(member.cookie));
    expect(text).toContain(`Post-Event Letters Due Recently Past Night ( ${formatEventDate(recent.date)} ): PEL due`);
    for (const title of ["Recently Written Night", "Long Past Night", "Missed Night", "Cancelled Night"])
      expect(text).not.toContain(title);

    // A member with nothing due sees no such section.
    const newcomer = await signedInMember("player");
    expect(visibleText(await page(newcomer.cookie))).not.toContain("Post-Event Letters Due");
  });

  it("reads the member's rows for all the listed events in one query", async () => {
    const member = await signedInMember("player");
    for (let i = 0; i < 10; i++) {
      const event = await createEvent(db(), {
        title: `Counted Night ${i}`,
        date: addDays(today, 20 + i),
        status: "future",
      });
      await db().insert(eventAttendance).values(attendanceValues(member.id, event.id));
      await db().insert(merchantOrders).values(orderValues(member.id, event.id));
    }
    queries.length = 0;
    const html = await page(member.cookie);
    // Page one lists ten events, most of them this member's (others' events come first by date).
    expect(visibleText(html).match(/Registration Registered/g)?.length ?? 0).toBeGreaterThanOrEqual(5);
    const reads = queries.filter(
      (query) => /\bmerchant_orders\b/.test(query) || /\bevent_attendance\b/.test(query) || /\bpels\b/.test(query),
    );
    expect(reads).toHaveLength(1);
  });

  it("sends a signed-out visitor to sign in, for the page and an event's calendar file; the feed answers at a member's own address", async () => {
    const event = await createEvent(db(), { title: "Open Night", date: addDays(today, 50), status: "future" });
    const events = await fetch(`${app().url}/events`, { redirect: "manual" });
    expect(events.status).toBe(302);
    expect(events.headers.get("Location")).toBe("/auth?redirectTo=%2Fevents");
    expect((await fetch(`${app().url}/events/calendar.ics`, { redirect: "manual" })).status).toBe(404);
    const member = await signedInMember("player");
    const feed = await fetch(`${app().url}${await calendarFeedPath(member.id)}`, { redirect: "manual" });
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain("SUMMARY:Open Night");
    const refused = await fetch(`${app().url}/events/${event.id}/calendar.ics`, { redirect: "manual" });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
    const file = await fetch(`${app().url}/events/${event.id}/calendar.ics`, {
      redirect: "manual",
      headers: { Cookie: member.cookie },
    });
    expect(file.status).toBe(200);
    // Nothing about any member is in a calendar file.
    expect(await file.text()).not.toMatch(/Registered|PEL due|orders?/i);
  });

  it("names each event's status region and links by its title and date, as two events may share a title", async () => {
    const events = [
      await createEvent(db(), { title: "Twin Night", date: addDays(today, 2), status: "future" }),
      await createEvent(db(), { title: "Twin Night", date: addDays(today, 3), status: "future" }),
    ];
    const member = await signedInMember("player");
    const html = await page(member.cookie);
    for (const event of events) {
      const name = `Twin Night, ${formatEventDate(event.date)}`;
      const heading = `<h3 id="status-${event.id}" class="text-xl">Your status<span class="sr-only"> for ${name}</span></h3>`;
      expect(html).toContain(`<section aria-labelledby="status-${event.id}"`);
      expect(html).toContain(heading);
      expect(html).toContain(`Add to Calendar<span class="sr-only"> ${name}</span>`);
      expect(html).toContain(`Place an order<span class="sr-only"> for ${name}</span>`);
    }
  });
});
