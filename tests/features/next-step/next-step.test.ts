import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "~/game/roles";
import { addDays, clubToday, formatEventDate } from "~/lib/dates";
import {
  applicationValues,
  attendanceValues,
  createEvent,
  letterValues,
  orderValues,
  pelValues,
} from "~/platform/db/factories";
import {
  applications,
  costumePhotos,
  eventAttendance,
  letters,
  merchantOrders,
  pels,
  reviewQueue,
  stripeEvents,
} from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { inPageOrder, visibleText } from "../../helpers/html";
import { createMember, sessionCookie } from "../../helpers/members";

/** Every query the app makes, to see that a signed-out visit to `/` reads nothing. */
const queries: string[] = [];
const db = withTestDatabase({ logger: { logQuery: (query) => queries.push(query) } });
// Tickets sold on the site, so the managers' payments to look at are counted.
const app = withAppServer({ STRIPE_SECRET_KEY: "sk_test_next_step", STRIPE_WEBHOOK_SECRET: "whsec_next_step" });

const today = clubToday();

async function signedIn(role: Role, firstName: string) {
  const member = await createMember(role, { firstName });
  const cookie = await sessionCookie(member, { assuranceLevel: role === "manager" ? "aal2" : "aal1" });
  return { ...member, cookie };
}

async function home(cookie?: string): Promise<string> {
  const response = await fetch(`${app().url}/`, { headers: cookie ? { Cookie: cookie } : {} });
  expect(response.status).toBe(200);
  return response.text();
}

/** The member's panel as it reads, from its heading to the public page's hero. */
function panel(html: string): string {
  const start = html.indexOf('data-testid="next-step"');
  expect(start, "the member's panel is on the page").toBeGreaterThan(-1);
  // A tag's end is no space where punctuation follows it ("<strong>No photo yet</strong>, due").
  return visibleText(html.slice(start, html.indexOf('id="hero-title"'))).replaceAll(" ,", ",");
}

/** The address each link in the panel goes to, by its text. */
function panelLinks(html: string): Map<string, string> {
  const part = html.slice(html.indexOf('data-testid="next-step"'), html.indexOf('id="hero-title"'));
  return new Map(
    [...part.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)].map((match) => [
      visibleText(match[2]!).trim(),
      match[1]!.replaceAll("&amp;", "&"),
    ]),
  );
}

/** The club as every test reads it: made once, as the tests only look. */
const world = {} as {
  spring: { id: string; title: string; date: string };
  harvest: { id: string; title: string; date: string };
  ashfall: { id: string; title: string; date: string };
  player: Awaited<ReturnType<typeof signedIn>>;
  newcomer: Awaited<ReturnType<typeof signedIn>>;
  unpaid: Awaited<ReturnType<typeof signedIn>>;
  applicant: Awaited<ReturnType<typeof signedIn>>;
  pending: Awaited<ReturnType<typeof signedIn>>;
  rejected: Awaited<ReturnType<typeof signedIn>>;
  cast: Awaited<ReturnType<typeof signedIn>>;
  manager: Awaited<ReturnType<typeof signedIn>>;
};

beforeAll(async () => {
  // The soonest event, then one the player is registered for (sold on the site), then held ones.
  world.spring = await createEvent(db(), { title: "Spring Thaw", date: addDays(today, 20), status: "future" });
  world.harvest = await createEvent(db(), {
    title: "Harvest Muster",
    date: addDays(today, 40),
    status: "future",
    ticketPriceCents: 8500,
  });
  world.ashfall = await createEvent(db(), { title: "Ashfall Night", date: addDays(today, -10), status: "past" });
  const written = await createEvent(db(), { title: "Written Night", date: addDays(today, -12), status: "past" });
  const old = await createEvent(db(), { title: "Old Night", date: addDays(today, -60), status: "past" });
  const cancelled = await createEvent(db(), {
    title: "Cancelled Night",
    date: addDays(today, -5),
    status: "cancelled",
  });

  world.player = await signedIn("player", "Wyatt");
  world.newcomer = await signedIn("player", "Nell");
  world.unpaid = await signedIn("player", "Ulysses");
  world.applicant = await signedIn("applicant", "Abel");
  world.pending = await signedIn("applicant", "Penny");
  world.rejected = await signedIn("applicant", "Rhoda");
  world.cast = await signedIn("cast", "Cora");
  world.manager = await signedIn("manager", "Ada");
  const { player } = world;

  await db()
    .insert(eventAttendance)
    .values([
      attendanceValues(player.id, world.harvest.id),
      attendanceValues(player.id, world.ashfall.id),
      attendanceValues(player.id, written.id),
      attendanceValues(player.id, old.id),
      attendanceValues(player.id, cancelled.id),
      // On the list of an event sold on the site without a payment: one for the managers.
      attendanceValues(world.unpaid.id, world.harvest.id, { paymentStatus: "unpaid" }),
      // Unpaid at an event not sold on the site: the attendance page shows no payments for it.
      attendanceValues(world.unpaid.id, world.spring.id, { paymentStatus: "unpaid" }),
    ]);
  await db().insert(pels).values(pelValues(player.id, written.id));
  // Two letters in the player's box not opened yet, one opened, one still held for release.
  const delivered = { recipientId: player.id, status: "delivered" as const, deliveredAt: new Date() };
  await db()
    .insert(letters)
    .values([
      letterValues(world.newcomer.id, delivered),
      letterValues(world.newcomer.id, delivered),
      letterValues(world.newcomer.id, { ...delivered, readAt: new Date() }),
      letterValues(world.newcomer.id, { recipientId: player.id, status: "held" }),
      letterValues(world.newcomer.id, { status: "to_staff" }),
    ]);
  await db().insert(costumePhotos).values({
    userId: player.id,
    eventId: world.harvest.id,
    fileKey: "costumes/next-step.jpg",
    thumbKey: "costumes/next-step-thumb.jpg",
    fileType: "image/jpeg",
    fileSize: 4,
    width: 1,
    height: 1,
  });
  // Two orders, one already answered by staff.
  const [answered] = await db()
    .insert(merchantOrders)
    .values([orderValues(player.id, world.harvest.id), orderValues(player.id, world.harvest.id)])
    .returning({ id: merchantOrders.id });
  await db()
    .insert(reviewQueue)
    .values({ kind: "order", entryId: answered!.id, userId: player.id, status: "answered" });
  await db()
    .insert(applications)
    .values([applicationValues(world.pending), applicationValues(world.rejected, { status: "rejected" })]);
  await db()
    .insert(stripeEvents)
    .values([
      { id: "evt_unmatched", type: "checkout.session.completed", outcome: "unmatched", payload: { object: {} } },
      {
        id: "evt_settled",
        type: "checkout.session.completed",
        outcome: "mismatch",
        payload: { object: {} },
        dealtWithAt: new Date(),
      },
      { id: "evt_recorded", type: "checkout.session.completed", outcome: "recorded", payload: { object: {} } },
    ]);
});

describe("the home page", () => {
  it("is the public page alone for a visitor, read from nothing, after a member's visit too", async () => {
    await home(world.player.cookie);
    await home();
    queries.length = 0;
    const html = await home();
    expect(html).not.toContain('data-testid="next-step"');
    expect(visibleText(html)).not.toContain("Welcome back");
    expect(visibleText(html)).toContain("Join the Adventure");
    expect(queries).toEqual([]);
  });

  it("leads a player with their letter due, unread letters and next event, the public page after", async () => {
    const html = await home(world.player.cookie);
    const text = panel(html);
    expect(text).toContain("Welcome back, Wyatt");
    // Only the event held lately and not written about: not the one with a letter, the old one or the cancelled one.
    expect(text).toContain(`Post-event letter due Ashfall Night, ${formatEventDate(world.ashfall.date)}: write it now`);
    expect(text.match(/Post-event letter due/g)).toHaveLength(1);
    expect(text).toContain("2 unread letters Open your letter box");
    // The event they are registered for, not the sooner one they are not.
    expect(text).toContain(`Next event Harvest Muster ${formatEventDate(world.harvest.date)} You are registered`);
    expect(text).not.toContain("Spring Thaw");
    expect(text).toContain(
      `Costume photo: Waiting for review, due in 26 days (${formatEventDate(addDays(world.harvest.date, -14))})`,
    );
    expect(text).not.toContain("Review queues");
    expect(text).not.toContain("Nothing is waiting for you");
    const links = panelLinks(html);
    expect(links.get(`Post-event letter due Ashfall Night, ${formatEventDate(world.ashfall.date)}: write it now`)).toBe(
      `/pels?event=${world.ashfall.id}`,
    );
    expect(links.get("2 unread letters Open your letter box")).toBe("/letters?tab=box");
    expect(links.get("Your costume photos")).toBe("/costume");
    expect(links.get("Post-Event Letter")).toBe("/pels");
    expect([...links.keys()]).toEqual(
      expect.arrayContaining(["Character Builder", "Costume Photos", "Write a Letter"]),
    );
    // The spec's hero and the rest of the public page follow, unchanged.
    expect(
      inPageOrder(visibleText(html), [
        "Welcome back",
        "Apply Now",
        "Welcome to Hopewell",
        "Frequently Asked Questions",
      ]),
    ).toEqual(["Welcome back", "Apply Now", "Welcome to Hopewell", "Frequently Asked Questions"]);
  });

  it("tells a player with nothing to do so, and offers the soonest event's ticket", async () => {
    const html = await home(world.newcomer.cookie);
    const text = panel(html);
    expect(text).toContain("Nothing is waiting for you");
    expect(text).toContain(`Next event Spring Thaw ${formatEventDate(world.spring.date)} You are not registered yet`);
    expect(text).not.toContain("Costume photo");
    expect(panelLinks(html).get("Get your ticket")).toBe("/events");
  });

  it("tells a player on the list unpaid where they stand", async () => {
    const text = panel(await home(world.unpaid.cookie));
    // Spring Thaw is the sooner of their two.
    expect(text).toContain(
      `Next event Spring Thaw ${formatEventDate(world.spring.date)} On the list; payment not recorded`,
    );
    expect(text).toContain("Costume photo: No photo yet, due in 6 days");
    expect(text).not.toContain("Get your ticket");
  });

  it("tells an applicant who has not applied so, with the way to apply, and no character forms", async () => {
    const html = await home(world.applicant.cookie);
    const text = panel(html);
    expect(text).toContain("You have not applied yet Apply to play: fill in the application");
    expect(panelLinks(html).get("You have not applied yet Apply to play: fill in the application")).toBe(
      "/application",
    );
    expect(text).toContain("Members come to events once their application is accepted.");
    expect(text).not.toContain("You are not registered");
    const links = panelLinks(html);
    expect(links.get("Application")).toBe("/application");
    expect(links.has("Character Builder")).toBe(false);
    expect(links.has("Costume Photos")).toBe(false);
  });

  it("tells an applicant who has applied that a decision is awaited, or how it went", async () => {
    const text = panel(await home(world.pending.cookie));
    expect(text).toMatch(
      /Your application is waiting for a manager's decision Sent \w{3} \d{1,2}, \d{4}; see what you sent/,
    );
    expect(text).not.toContain("You have not applied yet");
    expect(panel(await home(world.rejected.cookie))).toContain("Your application was not accepted See what you sent");
  });

  it("shows cast each review queue with its entries not answered yet, and nothing of the managers'", async () => {
    const html = await home(world.cast.cookie);
    const text = panel(html);
    expect(text).toContain("Review queues");
    expect(text).toContain("Post-event letters 1 new");
    // Two orders, one answered.
    expect(text).toContain("Merchant orders 1 new");
    expect(text).toContain("Research papers none new");
    // The letter held for release and the one to an NPC; delivered ones are not staff's.
    expect(text).toContain("Letters 2 new");
    expect(text).toContain("Costume photos 1 new");
    expect(panelLinks(html).get("Post-event letters 1 new")).toBe("/view-pels");
    expect(text).not.toContain("For the managers");
    expect(text).not.toContain("waiting for a decision");
  });

  it("shows a manager the queues, the applications waiting and the payments to look at", async () => {
    const html = await home(world.manager.cookie);
    const text = panel(html);
    expect(text).toContain("Welcome back, Ada");
    expect(text).toContain("Letters 2 new");
    expect(text).toContain("Applications 1 waiting for a decision");
    expect(panelLinks(html).get("Applications 1 waiting for a decision")).toBe("/tools?tab=applications");
    // The notice not dealt with and the unpaid member at the event sold on the site.
    const payments = "Ticket payments 2 to look at: 1 notice from Stripe; 1 member on a list without a payment";
    expect(text).toContain(payments);
    expect(panelLinks(html).get(payments)).toBe("/attendance");
  });
});
