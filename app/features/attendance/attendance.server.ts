import { and, asc, count, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { isUuid } from "~/lib/ids";
import { stringify } from "csv-stringify/sync";
import { formatDollars } from "~/game/merchant";
import { formatClubTime } from "~/lib/dates";
import type { Cabin } from "~/game/cabins";
import type { SessionUser } from "~/lib/navigation";
import { isDeletedAccount } from "~/features/accounts/account-deletion.server";
import { audit } from "~/platform/audit.server";
import { database, type Transaction } from "~/platform/db/client.server";
import { characters, eventAttendance, events, profiles } from "~/platform/db/schema";

/** Events with how many paid attendees each has, latest first. */
export async function attendanceSummary() {
  const db = await database();
  return db
    .select({ id: events.id, title: events.title, date: events.date, attendees: count(eventAttendance.id) })
    .from(events)
    .leftJoin(eventAttendance, and(eq(eventAttendance.eventId, events.id), eq(eventAttendance.paymentStatus, "paid")))
    .groupBy(events.id)
    .orderBy(desc(events.date));
}

export type AttendanceRow = {
  userId: string;
  lastName: string;
  firstName: string;
  characterName: string | null;
  cabin: string | null;
};

/**
 * The event an id names (its id, title and date) with the chosen columns of its attendees (only
 * those who paid, unless `everyone`), by last then first name; null for an id that names no event.
 */
export async function eventWithAttendees<Row>(
  eventId: string,
  columns: Record<string, AnyPgColumn | SQL>,
  { everyone = false }: { everyone?: boolean } = {},
) {
  if (!isUuid(eventId)) return null;
  const db = await database();
  const [event] = await db
    .select({ id: events.id, title: events.title, date: events.date })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event) return null;
  const rows = await db
    .select(columns)
    .from(eventAttendance)
    .innerJoin(profiles, eq(profiles.id, eventAttendance.userId))
    .leftJoin(characters, eq(characters.userId, eventAttendance.userId))
    .where(and(eq(eventAttendance.eventId, eventId), everyone ? undefined : eq(eventAttendance.paymentStatus, "paid")))
    .orderBy(asc(profiles.lastName), asc(profiles.firstName), asc(profiles.id));
  // The columns chosen are the caller's row type; the query builder cannot carry them through.
  return { ...event, rows: rows as unknown as Row[] };
}

/** An event's paid attendees, by last name then first name. */
export async function paidAttendees(
  eventId: string,
): Promise<{ title: string; date: string; rows: AttendanceRow[] } | null> {
  return eventWithAttendees<AttendanceRow>(eventId, {
    userId: eventAttendance.userId,
    lastName: profiles.lastName,
    firstName: profiles.firstName,
    characterName: eventAttendance.characterName,
    cabin: eventAttendance.cabin,
  });
}

export type SheetAttendee = {
  userId: string;
  firstName: string;
  lastName: string;
  characterName: string | null;
  cabin: Cabin | null;
  /** How to reach them; none for a deleted account's placeholder. */
  email: string | null;
  emergencyContact: { name: string; phone: string } | null;
};

/**
 * An event and its paid attendees for the event-day sheet, in one query however many there are:
 * their names, the character recorded with them, their cabin, email and emergency contact.
 * Reading the contacts is the caller's to audit.
 */
export async function eventDayAttendees(
  eventId: string,
): Promise<{ id: string; title: string; date: string; rows: SheetAttendee[] } | null> {
  const event = await eventWithAttendees<SheetAttendee & { email: string }>(eventId, {
    userId: eventAttendance.userId,
    firstName: profiles.firstName,
    lastName: profiles.lastName,
    characterName: sql<string | null>`coalesce(${eventAttendance.characterName}, ${characters.characterName})`,
    cabin: eventAttendance.cabin,
    email: profiles.email,
    emergencyContact: profiles.emergencyContact,
  });
  if (!event) return null;
  return {
    ...event,
    rows: event.rows.map((row) => (isDeletedAccount(row) ? { ...row, email: null, emergencyContact: null } : row)),
  };
}

/** A cell a spreadsheet would run as a formula (=, +, -, @, tab, return) is kept as text. */
export function spreadsheetSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** A ticket paid on the site, for the export's payment columns. */
export type AttendancePayment = { amountCents: number | null; paidAt: Date | null };

/**
 * The export of docs/product.md#attendance-export: Last Name, First Name, Character Name, Cabin,
 * with its placeholders. A manager's export (given `payments`) adds how each attendee paid: the
 * amount and time of a ticket bought on the site, or "Recorded by a manager".
 */
export function attendanceCsv(rows: AttendanceRow[], payments?: ReadonlyMap<string, AttendancePayment>): string {
  const columns = [
    "Last Name",
    "First Name",
    "Character Name",
    "Cabin",
    ...(payments ? ["Payment", "Amount", "Paid At"] : []),
  ];
  return stringify(
    rows.map((row) => {
      const cells = [row.lastName, row.firstName, row.characterName || "No character", row.cabin || "Not assigned"];
      if (payments) {
        const paid = payments.get(row.userId);
        cells.push(
          paid ? "Ticket bought on the site" : "Recorded by a manager",
          paid?.amountCents != null ? formatDollars(paid.amountCents) : "",
          paid?.paidAt ? formatClubTime(paid.paidAt) : "",
        );
      }
      return cells.map(spreadsheetSafe);
    }),
    { header: true, columns, bom: true },
  );
}

/**
 * "Blood Moon 2025-06-13 attendance.csv", with nothing a file system or a header would choke on.
 * The date tells apart the files of two events with the same title (a yearly event keeps its name).
 */
export function attendanceFileName(title: string, date: string): string {
  const safe =
    title
      .replace(/[^\p{L}\p{N} ._-]+/gu, " ")
      .replace(/\s+/g, " ")
      .trim() || "event";
  return `${safe} ${date} attendance.csv`;
}

/** What settling an unpaid registration came to. */
export type UnpaidSettled = { outcome: "done"; name: string } | { outcome: "not-found" };

/**
 * A manager settles a member left on an event's list without a payment (their ticket refunded at
 * Stripe, say): takes them off the list, or records that they paid another way (cash at the
 * gate), which counts them as attending again. Only an unpaid registration can be settled here.
 */
export async function settleUnpaidRegistration(
  actor: SessionUser,
  input: { eventId: string; userId: string; settle: "remove" | "record-payment" },
): Promise<UnpaidSettled> {
  if (!isUuid(input.eventId)) return { outcome: "not-found" };
  const db = await database();
  return db.transaction(async (tx: Transaction) => {
    const onList = and(
      eq(eventAttendance.eventId, input.eventId),
      eq(eventAttendance.userId, input.userId),
      ne(eventAttendance.paymentStatus, "paid"),
    );
    const changed =
      input.settle === "remove"
        ? await tx.delete(eventAttendance).where(onList).returning({ userId: eventAttendance.userId })
        : await tx
            .update(eventAttendance)
            .set({ paymentStatus: "paid" })
            .where(onList)
            .returning({ userId: eventAttendance.userId });
    if (changed.length === 0) return { outcome: "not-found" };
    await audit(tx, {
      actorId: actor.id,
      action: input.settle === "remove" ? "attendance.remove_unpaid" : "attendance.record_payment",
      subjectId: input.userId,
      details: { eventId: input.eventId },
    });
    const [member] = await tx
      .select({ firstName: profiles.firstName, lastName: profiles.lastName })
      .from(profiles)
      .where(eq(profiles.id, input.userId));
    return { outcome: "done", name: member ? `${member.firstName} ${member.lastName}` : "The member" };
  });
}
