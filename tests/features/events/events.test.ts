import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  EVENT_DATE_HINT,
  TICKET_PLACES_RANGE,
  TICKET_PRICE_FORMAT,
  TICKET_PRICE_RANGE,
  TICKET_URL_HTTPS,
} from "~/features/events/events.form";
import { createEvent } from "~/platform/db/factories";
import { events } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { readable } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();

describe("events", () => {
  const app = withAppServer();

  it("lets a manager add events with https ticket links only", async () => {
    const manager = await signedInMember("manager");
    const refused = await postForm(
      app().url,
      "/events/manage",
      {
        intent: "create",
        title: "Blood Moon",
        date: "2027-05-14",
        status: "future",
        ticketUrl: "http://tickets.example.com/x",
      },
      manager.cookie,
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(TICKET_URL_HTTPS);
    const script = await postForm(
      app().url,
      "/events/manage",
      { intent: "create", title: "Blood Moon", date: "2027-05-14", status: "future", ticketUrl: "javascript:alert(1)" },
      manager.cookie,
    );
    expect(script.status).toBe(400);
    const badDate = await postForm(
      app().url,
      "/events/manage",
      { intent: "create", title: "Blood Moon", date: "2027-02-30", status: "future", ticketUrl: "" },
      manager.cookie,
    );
    expect(badDate.status).toBe(400);
    expect(await db().select().from(events).where(eq(events.title, "Blood Moon"))).toEqual([]);

    const added = await postForm(
      app().url,
      "/events/manage",
      {
        intent: "create",
        title: "Blood Moon",
        date: "2027-05-14",
        status: "future",
        ticketUrl: "https://buy.stripe.com/test_blood",
      },
      manager.cookie,
    );
    expect(added.status).toBe(200);
    const [row] = await db().select().from(events).where(eq(events.title, "Blood Moon"));
    expect(row).toMatchObject({ date: "2027-05-14", status: "future", ticketUrl: "https://buy.stripe.com/test_blood" });
  });

  it("lets a manager give an event a ticket price in dollars and a number of places, refusing what cannot be sold", async () => {
    const manager = await signedInMember("manager");
    const base = { intent: "create", title: "Priced Night", date: "2027-06-11", status: "future", ticketUrl: "" };
    for (const [fields, message] of [
      [{ ticketPriceCents: "forty", ticketPlaces: "" }, TICKET_PRICE_FORMAT],
      [{ ticketPriceCents: "0.10", ticketPlaces: "" }, TICKET_PRICE_RANGE],
      [{ ticketPriceCents: "45", ticketPlaces: "0" }, TICKET_PLACES_RANGE],
      [{ ticketPriceCents: "45", ticketPlaces: "2.5" }, TICKET_PLACES_RANGE],
    ] as const) {
      const refused = await postForm(app().url, "/events/manage", { ...base, ...fields }, manager.cookie);
      expect(refused.status).toBe(400);
      expect(readable(await refused.text())).toContain(message);
    }
    expect(await db().select().from(events).where(eq(events.title, "Priced Night"))).toEqual([]);
    expect(
      (
        await postForm(
          app().url,
          "/events/manage",
          { ...base, ticketPriceCents: "45.50", ticketPlaces: "40" },
          manager.cookie,
        )
      ).status,
    ).toBe(200);
    const [row] = await db().select().from(events).where(eq(events.title, "Priced Night"));
    expect(row).toMatchObject({ ticketPriceCents: 4550, ticketPlaces: 40 });
    const list = readable(
      await (await fetch(`${app().url}/events/manage`, { headers: { Cookie: manager.cookie } })).text(),
    );
    expect(list).toContain("tickets $45.50, 40 places");
    // Emptied, the event is sold by its link only again.
    expect(
      (
        await postForm(
          app().url,
          "/events/manage",
          { ...base, intent: "update", id: row!.id, ticketPriceCents: "", ticketPlaces: "" },
          manager.cookie,
        )
      ).status,
    ).toBe(200);
    expect(
      await db()
        .select({ price: events.ticketPriceCents, places: events.ticketPlaces })
        .from(events)
        .where(eq(events.id, row!.id)),
    ).toEqual([{ price: null, places: null }]);
  });

  it("says on the form that an event's date is the Friday the venue opens, and warns, saving all the same, when it is not", async () => {
    const manager = await signedInMember("manager");
    const form = readable(
      await (await fetch(`${app().url}/events/manage`, { headers: { Cookie: manager.cookie } })).text(),
    );
    expect(form).toContain(EVENT_DATE_HINT);
    const sunday = await postForm(
      app().url,
      "/events/manage",
      { intent: "create", title: "Sunday Slip", date: "2027-05-16", status: "future", ticketUrl: "" },
      manager.cookie,
    );
    expect(sunday.status).toBe(200);
    const sundayPage = readable(await sunday.text());
    expect(sundayPage).toContain("Event added.");
    expect(sundayPage).toContain("Sunday, May 16, 2027 is not a Friday. An event's date is the Friday the venue opens");
    expect(await db().select({ date: events.date }).from(events).where(eq(events.title, "Sunday Slip"))).toEqual([
      { date: "2027-05-16" },
    ]);
    const friday = await postForm(
      app().url,
      "/events/manage",
      { intent: "create", title: "Friday Right", date: "2027-05-14", status: "future", ticketUrl: "" },
      manager.cookie,
    );
    const fridayPage = readable(await friday.text());
    expect(fridayPage).toContain("Event added.");
    expect(fridayPage).not.toContain("is not a Friday");
  });

  it("shows members future events soonest first, each with its date and ticket button", async () => {
    await createEvent(db(), { title: "Later Event", date: "2028-09-15", status: "future", ticketUrl: null });
    await createEvent(db(), {
      title: "Sooner Event",
      date: "2027-03-19",
      status: "future",
      ticketUrl: "https://buy.stripe.com/test_sooner",
    });
    await createEvent(db(), { title: "Old Event", date: "2024-05-17", status: "past" });
    await createEvent(db(), { title: "Called Off", date: "2027-04-16", status: "cancelled" });
    const player = await signedInMember("player");
    const html = await (await fetch(`${app().url}/events`, { headers: { Cookie: player.cookie } })).text();
    expect(html.indexOf("Sooner Event")).toBeLessThan(html.indexOf("Later Event"));
    expect(html).toContain("Friday, March 19, 2027");
    expect(html).not.toContain("Old Event");
    expect(html).not.toContain("Called Off");
    expect(html).toMatch(/href="https:\/\/buy\.stripe\.com\/test_sooner" target="_blank" rel="noopener noreferrer"/);
    // No link, no button: one Purchase Ticket per linked event.
    const buttons = html.match(/Purchase Ticket<span class="sr-only"> for ([^<(]+)/g) ?? [];
    expect(buttons.some((b) => b.includes("Later Event"))).toBe(false);
  });

  it("lists upcoming events ten at a time, soonest first", async () => {
    // Far enough ahead that every other test's events come first, so these are the last eleven.
    for (let month = 1; month <= 11; month++) {
      await createEvent(db(), {
        title: `Far Night ${month}`,
        date: `2090-${String(month).padStart(2, "0")}-10`,
        status: "future",
      });
    }
    const player = await signedInMember("player");
    const get = async (path: string) =>
      (await fetch(`${app().url}${path}`, { headers: { Cookie: player.cookie } })).text();
    const first = await get("/events");
    const pages = Number(first.match(/Page (?:<!-- -->)?1(?:<!-- -->)? of (?:<!-- -->)?(\d+)/)![1]);
    expect(pages).toBeGreaterThanOrEqual(2);
    const last = await get(`/events?page=${pages - 1}`);
    expect(last).toContain("Far Night 11<");
    expect(last).toContain(">Previous<");
    expect(first).not.toContain("Far Night 11<");
  });

  it("cancels an event, and keeps players out of the managers' page", async () => {
    const manager = await signedInMember("manager");
    const player = await signedInMember("player");
    const event = await createEvent(db(), { title: "To Cancel", date: "2027-06-18", status: "future" });
    expect(
      (await postForm(app().url, "/events/manage", { intent: "cancel", id: event.id }, player.cookie)).status,
    ).toBe(403);
    expect(
      (await postForm(app().url, "/events/manage", { intent: "cancel", id: event.id }, manager.cookie)).status,
    ).toBe(200);
    const [row] = await db().select().from(events).where(eq(events.id, event.id));
    expect(row!.status).toBe("cancelled");
    expect(
      (await postForm(app().url, "/events/manage", { intent: "cancel", id: "not-a-uuid" }, manager.cookie)).status,
    ).toBe(404);
  });

  it("says so when no events are scheduled", async () => {
    await db().update(events).set({ status: "past" });
    const player = await signedInMember("player");
    const html = await (await fetch(`${app().url}/events`, { headers: { Cookie: player.cookie } })).text();
    expect(html).toContain("No Events Scheduled");
  });
});
