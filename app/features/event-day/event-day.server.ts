import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { isUuid } from "~/lib/ids";
import type { SessionUser } from "~/lib/navigation";
import { eventDayAttendees } from "~/features/attendance/attendance.server";
import type { CostumeStatus } from "~/game/costume";
import { storedTotalCents } from "~/game/merchant";
import { audit } from "~/platform/audit.server";
import { costumeStatusesAt } from "~/features/costume/costumes.server";
import { inCabinOrder } from "~/features/club-facts/cabins/cabins.server";
import { ChangeAwareCache } from "~/platform/db/changes.server";
import { database } from "~/platform/db/client.server";
import { auditLog, merchantOrders, type PricedItems } from "~/platform/db/schema";

/** The heading of attendees with no cabin recorded, last on the sheet. */
export const NO_CABIN = "Not assigned";

/** An order to hand out, with what it keeps of the price list as the member saw it. */
export type SheetOrder = { id: string; items: Record<string, number>; pricedItems: PricedItems; totalCents: number };

export type SheetAttendee = {
  userId: string;
  name: string;
  characterName: string | null;
  email: string | null;
  emergencyContact: { name: string; phone: string } | null;
  orders: SheetOrder[];
  /** What this attendee pays on the day for their orders, in cents. */
  dueCents: number;
  costume: CostumeStatus;
};

export type EventDaySheet = {
  event: { id: string; title: string; date: string };
  cabins: { cabin: string; attendees: SheetAttendee[] }[];
  attendees: number;
  /** Everything to collect for the event's orders, in cents. */
  totalCents: number;
  /** When the sheet was read (ISO): an offline copy says how old it is. */
  fetchedAt: string;
};

type KeptSheet = Omit<EventDaySheet, "fetchedAt"> & { withContacts: number };

/**
 * Each event's sheet, kept until a write to a table it reads is announced (a handed-out order,
 * a cabin, a changed contact) and for a minute at most: on the day, several managers open it
 * over and over, each time reading 300 attendees with their contacts, orders and costumes.
 */
const keptSheets = new ChangeAwareCache<KeptSheet | null>({
  name: "event-day sheets",
  tables: [
    "events",
    "event_attendance",
    "profiles",
    "characters",
    "merchant_orders",
    "costume_photos",
    "costume_reviews",
  ],
  maxAgeMs: 60_000,
  maxEntries: 20,
});

/**
 * One event's sheet for the day: its paid attendees by cabin (in the club's order of its cabins,
 * then any cabin no longer offered, then those without one), each with their character,
 * emergency contact, orders to hand out with what they owe, and costume-photo standing. Every
 * reading is audited, kept or not.
 */
export async function eventDaySheet(
  viewer: SessionUser,
  eventId: string,
  now = new Date(),
): Promise<EventDaySheet | null> {
  if (!isUuid(eventId)) return null;
  // An unknown event is answered, not kept.
  const sheet = await keptSheets.get(
    eventId,
    () => readSheet(eventId),
    (kept) => kept !== null,
  );
  if (!sheet) return null;
  const { withContacts, ...shown } = sheet;
  await auditReading(viewer, shown.event.id, withContacts, now);
  // Ordered as the club's list is now, not as it was when the sheet was kept.
  const named = await inCabinOrder(shown.cabins.filter((group) => group.cabin !== NO_CABIN));
  const none = shown.cabins.filter((group) => group.cabin === NO_CABIN);
  return { ...shown, cabins: [...named, ...none], fetchedAt: now.toISOString() };
}

/**
 * Readings of one event's sheet by one manager this close together are one visit: opening the
 * sheet is followed at once by the offline copy's own fetch of it, and a reload is no new look.
 */
const ONE_VISIT_MS = 60_000;

/** Who read the emergency contacts, for which event and how many: never the contacts themselves. */
async function auditReading(viewer: SessionUser, eventId: string, withContacts: number, now: Date) {
  const db = await database();
  const [recent] = await db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.actorId, viewer.id),
        eq(auditLog.action, "emergency_contacts.view"),
        gt(auditLog.createdAt, new Date(now.getTime() - ONE_VISIT_MS)),
        sql`${auditLog.details}->>'eventId' = ${eventId}`,
      ),
    )
    .limit(1);
  if (recent) return;
  await audit(db, {
    actorId: viewer.id,
    action: "emergency_contacts.view",
    details: { eventId, members: withContacts, sheet: "event-day" },
  });
}

/** One query per kind of data, whatever the head count, each found by the event's indexes. */
async function readSheet(eventId: string): Promise<KeptSheet | null> {
  const attendance = await eventDayAttendees(eventId);
  if (!attendance) return null;
  const [orders, costumes] = await Promise.all([ordersToHandOut(attendance.id), costumeStatusesAt(attendance.id)]);
  const ordersBy = new Map<string, SheetOrder[]>();
  for (const order of orders) {
    const list = ordersBy.get(order.userId) ?? [];
    list.push({
      id: order.id,
      items: order.items,
      pricedItems: order.pricedItems,
      totalCents: storedTotalCents(order.totalPrice),
    });
    ordersBy.set(order.userId, list);
  }
  const byCabin = new Map<string, SheetAttendee[]>();
  let totalCents = 0;
  for (const row of attendance.rows) {
    const own = ordersBy.get(row.userId) ?? [];
    const dueCents = own.reduce((sum, order) => sum + order.totalCents, 0);
    totalCents += dueCents;
    const cabin = row.cabin ?? NO_CABIN;
    if (!byCabin.has(cabin)) byCabin.set(cabin, []);
    byCabin.get(cabin)!.push({
      userId: row.userId,
      name: `${row.firstName} ${row.lastName}`,
      characterName: row.characterName,
      email: row.email,
      emergencyContact: row.emergencyContact,
      orders: own,
      dueCents,
      costume: costumes.get(row.userId) ?? "missing",
    });
  }
  // In the club's order when the sheet is read (eventDaySheet).
  const cabins = [...byCabin].map(([cabin, attendees]) => ({ cabin, attendees }));
  const withContacts = attendance.rows.filter((row) => row.email !== null).length;
  return {
    event: { id: attendance.id, title: attendance.title, date: attendance.date },
    cabins,
    attendees: attendance.rows.length,
    totalCents,
    withContacts,
  };
}

/**
 * Every merchant order of an event not yet handed out, oldest first, for the day (the event-day
 * sheet): one query for the whole event, grouped by member by the caller.
 */
export async function ordersToHandOut(eventId: string) {
  const db = await database();
  return db
    .select({
      id: merchantOrders.id,
      userId: merchantOrders.userId,
      items: merchantOrders.items,
      pricedItems: merchantOrders.pricedItems,
      totalPrice: merchantOrders.totalPrice,
      createdAt: merchantOrders.createdAt,
    })
    .from(merchantOrders)
    .where(and(eq(merchantOrders.eventId, eventId), isNull(merchantOrders.handedOutAt)))
    .orderBy(merchantOrders.createdAt, merchantOrders.id);
}
