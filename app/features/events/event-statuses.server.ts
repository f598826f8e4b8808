import { sql } from "drizzle-orm";
import type { CostumeStatus } from "~/game/costume";
import { PEL_REMINDER_DAYS } from "~/game/pel";
import { COSTUME_PHOTO_WEEKS_BEFORE } from "~/game/setting";
import { addDays } from "~/lib/dates";
import { memberCostumeStatuses } from "~/features/costume/costumes.server";
import { ChangeAwareCache } from "~/platform/db/changes.server";
import { database, rawRows } from "~/platform/db/client.server";
import { dayAfterEvent } from "./event-times.server";

/** What a member has done for one event, from their own rows: attendance, orders and letters. */
export type MemberEventRow = {
  eventId: string;
  title: string;
  date: string;
  /** null: not on the attendance list; else its payment status. */
  attendance: "paid" | "unpaid" | null;
  /** The cabin the attendance list gives the member, if any. */
  cabin: string | null;
  orders: number;
  orderCents: number;
  /** How many of the orders staff have handed over. */
  ordersHandedOut: number;
  pelSent: boolean;
};

/**
 * Kept per member until a write to a table it reads is announced, like the profile overview:
 * the events page is the busiest signed-in page, and a member's rows change seldom. What is
 * kept does not depend on the day, so "due" is worked out on every read.
 */
const memberEventRows = new ChangeAwareCache<readonly MemberEventRow[]>({
  name: "members' event rows",
  tables: ["events", "event_attendance", "merchant_orders", "pels"],
  maxAgeMs: 60_000,
  maxEntries: 1_000,
});

/**
 * Every event (not cancelled) the member is on the attendance list of, ordered for or wrote a
 * letter about, with counts: one query, whatever the number of events shown. Each part is
 * found by the member's own indexes (user_id), so its cost is the member's rows, not the club's.
 */
async function readMemberEventRows(userId: string): Promise<MemberEventRow[]> {
  const db = await database();
  return rawRows<MemberEventRow>(
    db,
    sql`select e.id as "eventId", e.title, e.date::text as date,
          max(mine.payment_status) as attendance,
          max(mine.cabin) as cabin,
          (count(*) filter (where mine.kind = 'order'))::int as orders,
          coalesce(round(sum(mine.total) filter (where mine.kind = 'order') * 100), 0)::int as "orderCents",
          (count(*) filter (where mine.kind = 'order' and mine.handed_out))::int as "ordersHandedOut",
          bool_or(mine.kind = 'pel') as "pelSent"
        from (
          select event_id, 'attendance' as kind, payment_status, cabin, null::numeric as total, false as handed_out from event_attendance where user_id = ${userId}
          union all
          select event_id, 'order', null, null, total_price, handed_out_at is not null from merchant_orders where user_id = ${userId}
          union all
          select event_id, 'pel', null, null, null, false from pels where user_id = ${userId}
        ) mine
        join events e on e.id = mine.event_id
        where e.status <> 'cancelled'
        group by e.id, e.title, e.date
        order by e.date desc`,
  );
}

/** What the events page tells a member about one event. */
export type MemberEventStatus = {
  /** "registered" when on the attendance list as paid; "unpaid" when listed without payment. */
  registration: "registered" | "unpaid" | "not registered";
  /** The member's cabin at the event, once the organisers have given one. */
  cabin: string | null;
  /** The day the costume photo is due (event date minus two weeks), while the event is ahead. */
  costumePhotoDue: string | null;
  /** Where the member's costume photos stand with staff (costumes.server.ts). */
  costumePhoto: CostumeStatus;
  /** `handedOut`: how many of them staff have handed over at the event. */
  orders: { count: number; totalCents: number; handedOut: number };
  /** Only after the event's weekend, for a member who attended: "due" until they send one. */
  pel: "due" | "sent" | null;
};

/** An upcoming event the member is on the attendance list of: what the events page leads with. */
export type MemberRegistration = {
  id: string;
  title: string;
  date: string;
  /** false: on the list, but no payment recorded. */
  paid: boolean;
  cabin: string | null;
};

/** The events page's member rows, for the listed events and for held events whose letter is due. */
export type MemberEventStatuses = {
  byEvent: Record<string, MemberEventStatus>;
  /** Every upcoming event (listed on this page or not, its weekend not over) the member is registered for, soonest first. */
  registrations: MemberRegistration[];
  /** Events held within PEL_REMINDER_DAYS that the member attended and wrote no letter about, latest first. */
  lettersDue: { id: string; title: string; date: string }[];
};

/** The costume photo is due two weeks before the event (docs/product.md#costume-rule). */
export function costumePhotoDueDate(eventDate: string): string {
  return addDays(eventDate, -7 * COSTUME_PHOTO_WEEKS_BEFORE);
}

/** One event's status for a member, from their row for it (if any), on the club's `today`. */
export function memberEventStatus(
  event: { date: string },
  row: MemberEventRow | undefined,
  costumePhoto: CostumeStatus,
  today: string,
): MemberEventStatus {
  const over = today >= dayAfterEvent(event.date);
  return {
    registration:
      row?.attendance === "paid" ? "registered" : row?.attendance === "unpaid" ? "unpaid" : "not registered",
    cabin: row?.attendance ? row.cabin : null,
    costumePhotoDue: today <= event.date ? costumePhotoDueDate(event.date) : null,
    costumePhoto,
    orders: { count: row?.orders ?? 0, totalCents: row?.orderCents ?? 0, handedOut: row?.ordersHandedOut ?? 0 },
    pel: over && row?.attendance ? (row.pelSent ? "sent" : "due") : null,
  };
}

/**
 * The signed-in member's status for each listed event, the upcoming events (of `upcoming`, all
 * pages) they are registered for, and the letters due for events held lately that are not
 * listed: one query and the costume photos' two, each kept per member.
 */
export async function memberEventStatuses(
  userId: string,
  listed: readonly { id: string; date: string }[],
  today: string,
  upcoming: readonly { id: string; title: string; date: string }[] = [],
): Promise<MemberEventStatuses> {
  const [rows, photos] = await Promise.all([
    memberEventRows.get(userId, () => readMemberEventRows(userId)),
    memberCostumeStatuses(
      userId,
      listed.map((event) => event.id),
    ),
  ]);
  const rowOf = new Map(rows.map((row) => [row.eventId, row]));
  const byEvent: Record<string, MemberEventStatus> = {};
  for (const event of listed)
    byEvent[event.id] = memberEventStatus(event, rowOf.get(event.id), photos.get(event.id) ?? "missing", today);
  const listedIds = new Set(listed.map((event) => event.id));
  const lettersDue = rows
    .filter((row) => !listedIds.has(row.eventId) && row.attendance !== null && !row.pelSent)
    .filter((row) => today >= dayAfterEvent(row.date) && today < addDays(dayAfterEvent(row.date), PEL_REMINDER_DAYS))
    .map((row) => ({ id: row.eventId, title: row.title, date: row.date }));
  // Upcoming, or under way this weekend: an event whose weekend is over (listed until a manager
  // marks it past) is the letter's business, not a registration to lead with.
  const registrations = upcoming.flatMap((event) => {
    const row = rowOf.get(event.id);
    return row?.attendance && today < dayAfterEvent(event.date)
      ? [{ id: event.id, title: event.title, date: event.date, paid: row.attendance === "paid", cabin: row.cabin }]
      : [];
  });
  return { byEvent, registrations, lettersDue };
}
