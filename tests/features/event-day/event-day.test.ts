import { builtInPricedItems } from "~/game/merchant";
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createEvent, createProfile } from "~/platform/db/factories";
import {
  auditLog,
  characters,
  costumePhotos,
  costumeReviews,
  eventAttendance,
  merchantOrders,
  profiles,
} from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";
import { visibleText } from "../../helpers/html";

const db = withTestDatabase();
const app = withAppServer();

/** An event with three attendees in two cabins and one without, and orders from two of them. */
let seeded = 0;
async function seedEvent() {
  const tag = ++seeded;
  const event = await createEvent(db(), { title: "Harvest Moon", date: "2026-10-16", status: "future" });
  const other = await createEvent(db(), { title: "Other Weekend", date: "2026-11-20", status: "future" });
  const ada = await createProfile(db(), {
    firstName: "Ada",
    lastName: "Ashby",
    email: `ada${tag}@example.com`,
    role: "player",
    emergencyContact: { name: "Martha Ashby", phone: "+1 (860) 555-0142" },
  });
  const bo = await createProfile(db(), {
    firstName: "Bo",
    lastName: "Burke",
    email: `bo${tag}@example.com`,
    role: "player",
  });
  // Cy's id is of the auth library's kind (letters and digits, no UUID), like every signed-up member's.
  const cy = await createProfile(db(), {
    id: `Cy${randomUUID().replace(/-/g, "")}`.slice(0, 32),
    firstName: "Cy",
    lastName: "Cole",
    email: `cy${tag}@example.com`,
    role: "player",
    emergencyContact: { name: "Dee Cole", phone: "860-555-0199" },
  });
  const absent = await createProfile(db(), {
    firstName: "Absent",
    lastName: "Member",
    email: `absent${tag}@example.com`,
    role: "player",
    emergencyContact: { name: "Not Here", phone: "555" },
  });
  await db().insert(characters).values({
    userId: bo.id,
    characterName: "Boone the Trapper",
    faction: "Homesteader",
    job: "Hunter / Trapper",
    backstory: "x",
  });
  await db()
    .insert(eventAttendance)
    .values([
      { eventId: event.id, userId: ada.id, cabin: "Arctic Fox", characterName: "Sheriff Ada" },
      { eventId: event.id, userId: bo.id, cabin: "Dragon's Hoard", characterName: null },
      { eventId: event.id, userId: cy.id, cabin: null, characterName: "Cy the Quiet" },
      { eventId: other.id, userId: absent.id, cabin: "Arctic Fox" },
    ]);
  await db()
    .insert(merchantOrders)
    .values([
      {
        submissionKey: randomUUID(),
        userId: ada.id,
        eventId: event.id,
        items: { bullets: 2, salt: 1 },
        pricedItems: builtInPricedItems({ bullets: 2, salt: 1 }),
        totalPrice: "18.50",
      },
      {
        submissionKey: randomUUID(),
        userId: ada.id,
        eventId: event.id,
        items: { meat: 1 },
        pricedItems: builtInPricedItems({ meat: 1 }),
        totalPrice: "3.00",
      },
      {
        submissionKey: randomUUID(),
        userId: cy.id,
        eventId: event.id,
        items: { vials: 1 },
        pricedItems: builtInPricedItems({ vials: 1 }),
        totalPrice: "45.00",
      },
      {
        submissionKey: randomUUID(),
        userId: absent.id,
        eventId: other.id,
        items: { nails: 1 },
        pricedItems: builtInPricedItems({ nails: 1 }),
        totalPrice: "45.00",
      },
    ]);
  // Ada's costume is approved and Cy's waits for a verdict; Bo has sent nothing.
  const photo = (userId: string, n: number) => ({
    userId,
    eventId: event.id,
    fileKey: `costumes/${userId}/photo${tag}x${n}.jpg`,
    thumbKey: `costumes/${userId}/thumb${tag}x${n}.jpg`,
    fileType: "image/jpeg",
    fileSize: 1000,
    width: 800,
    height: 600,
  });
  await db()
    .insert(costumePhotos)
    .values([photo(ada.id, 1), photo(cy.id, 2)]);
  await db().insert(costumeReviews).values({ userId: ada.id, eventId: event.id, verdict: "approved" });
  return { event, ada, bo, cy };
}

/** What the page's polite live region says (one region, always on the page). */
function statusOf(html: string): string {
  const regions = [...html.matchAll(/<p role="status"[^>]*data-testid="sheet-status"[^>]*>([\s\S]*?)<\/p>/g)];
  expect(regions).toHaveLength(1);
  return visibleText(regions[0]![1]!).trim();
}

describe("the event-day sheet", () => {
  it("shows a manager the attendees by cabin with characters, contacts, orders and what to collect, and audits the look", async () => {
    const manager = await signedInMember("manager");
    const { event, ada } = await seedEvent();
    const response = await fetch(`${app().url}/tools/event-day/${event.id}`, { headers: { Cookie: manager.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Event-Day-Sheet")).toBe("manager");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const html = await response.text();
    const text = visibleText(html);
    // Cabins in the club's order, then those without one; each attendee under their cabin.
    expect(text).toMatch(
      /Dragon's Hoard \(1\).*Bo Burke Boone the Trapper.*Arctic Fox \(1\).*Ada Ashby Sheriff Ada.*Not assigned \(1\).*Cy Cole Cy the Quiet/,
    );
    expect(html).toContain('href="tel:+18605550142"');
    expect(html).toContain(`href="mailto:${ada.email}"`);
    expect(text).toContain("Martha Ashby");
    expect(text).toContain("No emergency contact");
    expect(text).toContain("2 × 20 Bullets");
    expect(text).toContain("1 × Meat");
    expect(text).toContain("1 × 20 Vials");
    // Per attendee (Ada's two orders together) and in all; another event's order is not counted.
    expect(text).toContain("$21.50");
    expect(text).toContain("$45.00");
    expect(text).toContain("To collect in all $66.50 Hopewell Dollars");
    expect(text).not.toContain("Absent Member");
    expect(text).not.toContain("50 Nails");
    // Each attendee's costume standing, in the row of their cabin.
    expect(text).toMatch(/Boone the Trapper.*No photo yet.*Sheriff Ada.*Approved.*Cy the Quiet.*Waiting for review/);
    expect(text).toMatch(/Fetched at \d{1,2}:\d{2} [AP]M on \w+day, \w{3} \d{1,2}/);

    const [entry] = await db().select().from(auditLog).where(eq(auditLog.actorId, manager.id));
    expect(entry).toMatchObject({
      action: "emergency_contacts.view",
      details: { eventId: event.id, members: 3, sheet: "event-day" },
    });
    expect(JSON.stringify(entry!.details)).not.toContain("Martha");
    expect(JSON.stringify(entry!.details)).not.toContain(ada.email);
  });

  it("shows a changed contact or cabin at once though the sheet is kept between readings, and audits each visit once", async () => {
    const manager = await signedInMember("manager");
    const { event, ada } = await seedEvent();
    const sheet = async () =>
      visibleText(
        await (await fetch(`${app().url}/tools/event-day/${event.id}`, { headers: { Cookie: manager.cookie } })).text(),
      );
    expect(await sheet()).toContain("Martha Ashby");
    await db()
      .update(profiles)
      .set({ emergencyContact: { name: "Hiram Ashby", phone: "860-555-0111" } })
      .where(eq(profiles.id, ada.id));
    const changed = await sheet();
    expect(changed).toContain("Hiram Ashby");
    expect(changed).not.toContain("Martha Ashby");
    await db()
      .update(eventAttendance)
      .set({ cabin: null })
      .where(and(eq(eventAttendance.eventId, event.id), eq(eventAttendance.userId, ada.id)));
    expect(await sheet()).toMatch(/Not assigned \(2\).*Ada Ashby/);
    // Three readings within a minute (as opening the sheet and its offline copy's own fetch are) are one visit.
    const readings = () =>
      db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorId, manager.id), eq(auditLog.action, "emergency_contacts.view")));
    expect(await readings()).toHaveLength(1);
    // A reading after that minute is a new visit.
    await db()
      .update(auditLog)
      .set({ createdAt: new Date(Date.now() - 61_000) })
      .where(eq(auditLog.actorId, manager.id));
    await sheet();
    expect(await readings()).toHaveLength(2);
    // Another manager's reading is theirs.
    const other = await signedInMember("manager");
    await fetch(`${app().url}/tools/event-day/${event.id}`, { headers: { Cookie: other.cookie } });
    expect(await db().select().from(auditLog).where(eq(auditLog.actorId, other.id))).toMatchObject([
      { action: "emergency_contacts.view", details: { eventId: event.id } },
    ]);
  });

  it("marks an order handed out from the sheet or the orders review, lists only orders still to hand out, and audits each mark", async () => {
    const manager = await signedInMember("manager");
    const cast = await signedInMember("cast");
    const { event, ada, cy } = await seedEvent();
    const [cysOrder] = await db().select().from(merchantOrders).where(eq(merchantOrders.userId, cy.id));
    const sheet = async () =>
      visibleText(
        await (await fetch(`${app().url}/tools/event-day/${event.id}`, { headers: { Cookie: manager.cookie } })).text(),
      );
    expect(await sheet()).toContain("To collect in all $66.50 Hopewell Dollars");

    // Cast may not use the sheet's button; the order stays to hand out.
    expect(
      (
        await postForm(
          app().url,
          `/tools/event-day/${event.id}`,
          { intent: "hand_out", orderId: cysOrder!.id },
          cast.cookie,
        )
      ).status,
    ).toBe(403);
    // An order of another event is not this sheet's to mark.
    const other = (await db().select().from(merchantOrders)).find((order) => order.eventId !== event.id)!;
    expect(
      (
        await postForm(
          app().url,
          `/tools/event-day/${event.id}`,
          { intent: "hand_out", orderId: other.id },
          manager.cookie,
        )
      ).status,
    ).toBe(404);

    const marked = await postForm(
      app().url,
      `/tools/event-day/${event.id}`,
      { intent: "hand_out", orderId: cysOrder!.id },
      manager.cookie,
    );
    expect(marked.status).toBe(303);
    // Back at Cy's row, with a note in the address: the page says whose order was marked, in the row and to a screen reader.
    const back = marked.headers.get("Location")!;
    expect(back).toBe(`/tools/event-day/${event.id}?handedOut=${cy.id}&order=${cysOrder!.id}#attendee-${cy.id}`);
    const [row] = await db().select().from(merchantOrders).where(eq(merchantOrders.id, cysOrder!.id));
    expect(row!.handedOutAt).not.toBeNull();
    expect(row!.handedOutBy).toBe(manager.id);
    const landed = await (await fetch(`${app().url}${back}`, { headers: { Cookie: manager.cookie } })).text();
    expect(statusOf(landed)).toBe("Handed out: Cy Cole's order. No more orders to hand out to them.");
    const cysRow = landed.match(new RegExp(`<tr[^>]*id="attendee-${cy.id}"[\\s\\S]*?</tr>`))![0];
    expect(visibleText(cysRow)).toMatch(
      /Cy Cole Cy the Quiet .*Marked as handed out\. Undo handed out for Cy Cole's order No orders Nothing/,
    );
    // Its head can take the keyboard, which the page moves there (no order of Cy's is left to hand out).
    expect(cysRow).toMatch(/<th scope="row" tabindex="-1"/);
    expect(landed.match(/Marked as handed out\./g)).toHaveLength(1);
    let text = await sheet();
    expect(text).not.toContain("1 × 20 Vials");
    expect(text).toContain("2 × 20 Bullets");
    expect(text).toContain("To collect in all $21.50 Hopewell Dollars");
    // Without the note, nothing is said.
    expect(text).not.toContain("Marked as handed out.");
    expect(text).not.toContain("Handed out: ");
    // Sent twice (two staff at one table): one mark, one audit row.
    await postForm(
      app().url,
      `/tools/event-day/${event.id}`,
      { intent: "hand_out", orderId: cysOrder!.id },
      manager.cookie,
    );
    expect(await db().select().from(auditLog).where(eq(auditLog.action, "order.hand_out"))).toEqual([
      expect.objectContaining({
        actorId: manager.id,
        subjectId: cy.id,
        details: { orderId: cysOrder!.id, eventId: event.id },
      }),
    ]);

    // The orders review says who handed it out; cast may undo a mark there.
    const review = visibleText(
      await (
        await fetch(`${app().url}/view-merchant-orders?event=${event.id}`, { headers: { Cookie: cast.cookie } })
      ).text(),
    );
    expect(review).toMatch(new RegExp(`Handed out [^]*? by ${manager.firstName} manager Undo`));
    const undone = await postForm(
      app().url,
      `/view-merchant-orders?event=${event.id}`,
      { intent: "undo_hand_out", orderId: cysOrder!.id },
      cast.cookie,
    );
    expect(undone.status).toBe(200);
    expect(visibleText(await undone.text())).toContain("No longer marked as handed out.");
    const [again] = await db().select().from(merchantOrders).where(eq(merchantOrders.id, cysOrder!.id));
    expect(again!.handedOutAt).toBeNull();
    expect(await db().select().from(auditLog).where(eq(auditLog.action, "order.undo_hand_out"))).toHaveLength(1);
    text = await sheet();
    expect(text).toContain("1 × 20 Vials");
    // A bad order id is a clear refusal, not a failure.
    const bad = await postForm(
      app().url,
      `/view-merchant-orders?event=${event.id}`,
      { intent: "hand_out", orderId: "not-an-order" },
      cast.cookie,
    );
    expect(bad.status).toBe(400);
    expect(visibleText(await bad.text())).toContain("That order is no longer there.");

    // One of Ada's two orders: the other is still hers to hand out, and the page says so.
    const [adasFirst] = await db().select().from(merchantOrders).where(eq(merchantOrders.userId, ada.id));
    const adas = await postForm(
      app().url,
      `/tools/event-day/${event.id}`,
      { intent: "hand_out", orderId: adasFirst!.id },
      manager.cookie,
    );
    expect(adas.headers.get("Location")).toBe(
      `/tools/event-day/${event.id}?handedOut=${ada.id}&order=${adasFirst!.id}#attendee-${ada.id}`,
    );
    const adasPage = await (
      await fetch(`${app().url}${adas.headers.get("Location")}`, { headers: { Cookie: manager.cookie } })
    ).text();
    expect(statusOf(adasPage)).toBe("Handed out: Ada Ashby's order. 1 more order to hand out to them.");
    expect(visibleText(adasPage.match(new RegExp(`<tr[^>]*id="attendee-${ada.id}"[\\s\\S]*?</tr>`))![0])).toMatch(
      /Marked as handed out\. .*Handed out : Ada Ashby's order/,
    );
    // Undo on the sheet (a press on the wrong row): the order is back among Ada's, and the page says so.
    const undoneHere = await postForm(
      app().url,
      `/tools/event-day/${event.id}`,
      { intent: "undo_hand_out", orderId: adasFirst!.id },
      manager.cookie,
    );
    expect(undoneHere.status).toBe(303);
    expect(undoneHere.headers.get("Location")).toBe(
      `/tools/event-day/${event.id}?undone=${ada.id}&order=${adasFirst!.id}#attendee-${ada.id}`,
    );
    const [adasAgain] = await db().select().from(merchantOrders).where(eq(merchantOrders.id, adasFirst!.id));
    expect(adasAgain!.handedOutAt).toBeNull();
    expect(await db().select().from(auditLog).where(eq(auditLog.action, "order.undo_hand_out"))).toHaveLength(2);
    const adasUndone = await (
      await fetch(`${app().url}${undoneHere.headers.get("Location")}`, { headers: { Cookie: manager.cookie } })
    ).text();
    expect(statusOf(adasUndone)).toBe(
      "No longer marked as handed out: Ada Ashby's order. 2 orders to hand out to them.",
    );
    const adasRow = visibleText(adasUndone.match(new RegExp(`<tr[^>]*id="attendee-${ada.id}"[\\s\\S]*?</tr>`))![0]);
    expect(adasRow).toMatch(/No longer marked as handed out\. /);
    expect(adasRow).not.toContain("Undo");
    expect(adasRow.match(/Handed out : Ada Ashby's order/g)).toHaveLength(2);
    // The address before Undo (Back, or a reload) no longer says the order is handed out, nor offers Undo.
    const before = await (
      await fetch(`${app().url}${adas.headers.get("Location")}`, { headers: { Cookie: manager.cookie } })
    ).text();
    expect(statusOf(before)).toBe("");
    expect(before).not.toContain("Marked as handed out.");
    expect(before).not.toContain('value="undo_hand_out"');
    // Cast may not undo from the sheet either.
    expect(
      (
        await postForm(
          app().url,
          `/tools/event-day/${event.id}`,
          { intent: "undo_hand_out", orderId: cysOrder!.id },
          cast.cookie,
        )
      ).status,
    ).toBe(403);
    // A note naming no attendee of this sheet says nothing.
    const stray = await (
      await fetch(`${app().url}/tools/event-day/${event.id}?handedOut=${randomUUID()}`, {
        headers: { Cookie: manager.cookie },
      })
    ).text();
    expect(statusOf(stray)).toBe("");
    expect(stray).not.toContain("Marked as handed out.");
  });

  it("draws a sheet of 300 attendees with their orders, each counted once", async () => {
    const manager = await signedInMember("manager");
    const event = await createEvent(db(), { title: "Big Weekend", date: "2026-09-18", status: "future" });
    const cabins = ["Dragon's Hoard", "Arctic Fox", "Weasel Haunt", "Camping", null] as const;
    const members = [];
    for (let i = 0; i < 300; i++)
      members.push({
        id: randomUUID(),
        firstName: `Many${i}`,
        lastName: "Crowd",
        email: `many${i}-${Date.now()}@example.com`,
        name: `Many${i} Crowd`,
        role: "player" as const,
        emergencyContact: { name: `Kin ${i}`, phone: `860555${String(i).padStart(4, "0")}` },
      });
    await db().insert(profiles).values(members);
    await db()
      .insert(eventAttendance)
      .values(members.map((member, i) => ({ eventId: event.id, userId: member.id, cabin: cabins[i % cabins.length] })));
    // Every attendee orders 20 vials ($45.00): $13,500.00 in all.
    await db()
      .insert(merchantOrders)
      .values(
        members.map((member) => ({
          submissionKey: randomUUID(),
          userId: member.id,
          eventId: event.id,
          items: { vials: 1 },
          pricedItems: builtInPricedItems({ vials: 1 }),
          totalPrice: "45.00",
        })),
      );
    const html = await (
      await fetch(`${app().url}/tools/event-day/${event.id}`, { headers: { Cookie: manager.cookie } })
    ).text();
    expect(html.match(/<th scope="row"/g)).toHaveLength(300);
    expect(html.match(/href="tel:/g)).toHaveLength(300);
    expect(visibleText(html)).toContain("To collect in all $13,500.00 Hopewell Dollars");
    expect(visibleText(html)).toContain("Not assigned (60)");
  });

  it("lists the events with links to their sheets, from the tools and the attendance tool", async () => {
    const manager = await signedInMember("manager");
    const { event } = await seedEvent();
    const index = await (await fetch(`${app().url}/tools/event-day`, { headers: { Cookie: manager.cookie } })).text();
    expect(index).toContain(`href="/tools/event-day/${event.id}"`);
    expect(visibleText(index)).toContain("Harvest Moon Friday, October 16, 2026 · 3 paid");
    const tool = await (await fetch(`${app().url}/attendance-tool`, { headers: { Cookie: manager.cookie } })).text();
    expect(tool).toContain(`href="/tools/event-day/${event.id}"`);
    const tools = await (await fetch(`${app().url}/tools`, { headers: { Cookie: manager.cookie } })).text();
    expect(tools).toContain('href="/tools/event-day"');
  });

  it("answers 404 for an unknown event", async () => {
    const manager = await signedInMember("manager");
    for (const id of [randomUUID(), "not-an-id"]) {
      const response = await fetch(`${app().url}/tools/event-day/${id}`, { headers: { Cookie: manager.cookie } });
      expect(response.status).toBe(404);
      expect(response.headers.get("X-Event-Day-Sheet")).toBeNull();
    }
  });

  it("keeps cast, players and visitors out, and audits nothing for them", async () => {
    const { event } = await seedEvent();
    for (const role of ["cast", "player"] as const) {
      const member = await signedInMember(role);
      for (const path of [`/tools/event-day/${event.id}`, "/tools/event-day"]) {
        const page = await fetch(`${app().url}${path}`, { headers: { Cookie: member.cookie }, redirect: "manual" });
        expect(page.status).toBe(302);
        expect(page.headers.get("Location")).toBe("/");
        expect(page.headers.get("X-Event-Day-Sheet")).toBeNull();
        const data = await fetch(`${app().url}${path}.data`, {
          headers: { Cookie: member.cookie },
          redirect: "manual",
        });
        expect(data.status).toBe(403);
        expect(await data.text()).not.toContain("Martha");
      }
      expect(await db().select().from(auditLog).where(eq(auditLog.actorId, member.id))).toEqual([]);
      const tools = await (await fetch(`${app().url}/tools`, { headers: { Cookie: member.cookie } })).text();
      expect(tools).not.toContain("/tools/event-day");
    }
    const anonymous = await fetch(`${app().url}/tools/event-day/${event.id}`, { redirect: "manual" });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toContain("/auth?redirectTo=");
  });

  it("tells the browser at sign-out to clear what it keeps for the site", async () => {
    const manager = await signedInMember("manager");
    const response = await fetch(`${app().url}/logout`, {
      method: "POST",
      headers: { Cookie: manager.cookie, Origin: app().url },
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Clear-Site-Data")).toBe('"cache", "storage"');
  });

  it("serves its offline worker from the site's own origin", async () => {
    const response = await fetch(`${app().url}/event-day-sw.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("javascript");
    const source = await response.text();
    expect(source).toContain("X-Event-Day-Sheet");
    const page = await fetch(`${app().url}/`);
    expect(page.headers.get("Content-Security-Policy")).toContain("worker-src 'self'");
  });
});
