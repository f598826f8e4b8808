import { CABINS } from "~/game/cabins";
import type { SessionUser } from "~/lib/navigation";
import { eventDayAttendees } from "./attendance.server";
import type { CostumeStatus } from "~/game/costume";
import { costumeStatusesOf } from "./costumes.server";
import { emergencyContactsOf } from "./members.server";
import { ordersToHandOut } from "./reviews.server";

/** The heading of attendees with no cabin recorded, last on the sheet. */
export const NO_CABIN = "Not assigned";

export type SheetOrder = { id: string; items: Record<string, number>; totalCents: number };

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

/**
 * One event's sheet for the day: its paid attendees by cabin (in the cabins' order, then those
 * without one), each with their character, emergency contact (audited), orders to hand out with
 * what they owe, and costume-photo standing. One query per kind of data, whatever the head count.
 */
export async function eventDaySheet(viewer: SessionUser, eventId: string, now = new Date()): Promise<EventDaySheet | null> {
  const attendance = await eventDayAttendees(eventId);
  if (!attendance) return null;
  const ids = attendance.rows.map((row) => row.userId);
  const [contacts, orders, costumes] = await Promise.all([emergencyContactsOf(viewer, ids, { eventId: attendance.id }), ordersToHandOut(attendance.id), costumeStatusesOf(attendance.id, ids)]);
  const ordersBy = new Map<string, SheetOrder[]>();
  for (const order of orders) {
    const list = ordersBy.get(order.userId) ?? [];
    list.push({ id: order.id, items: order.items, totalCents: Math.round(Number(order.totalPrice) * 100) });
    ordersBy.set(order.userId, list);
  }
  const byCabin = new Map<string, SheetAttendee[]>([...CABINS, NO_CABIN].map((cabin) => [cabin, []]));
  let totalCents = 0;
  for (const row of attendance.rows) {
    const contact = contacts.get(row.userId);
    const own = ordersBy.get(row.userId) ?? [];
    const dueCents = own.reduce((sum, order) => sum + order.totalCents, 0);
    totalCents += dueCents;
    byCabin.get(row.cabin ?? NO_CABIN)!.push({
      userId: row.userId,
      name: `${row.firstName} ${row.lastName}`,
      characterName: row.characterName,
      email: contact?.email ?? null,
      emergencyContact: contact?.emergencyContact ?? null,
      orders: own,
      dueCents,
      costume: costumes.get(row.userId) ?? "missing",
    });
  }
  const cabins = [...byCabin].filter(([, attendees]) => attendees.length > 0).map(([cabin, attendees]) => ({ cabin, attendees }));
  return { event: { id: attendance.id, title: attendance.title, date: attendance.date }, cabins, attendees: attendance.rows.length, totalCents, fetchedAt: now.toISOString() };
}
