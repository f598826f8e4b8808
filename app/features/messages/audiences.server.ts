import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { notApproved } from "~/features/costume/costume-reminders.server";
import type { AudienceKind, MessageChoice } from "~/game/messages";
import { formatEventDate } from "~/lib/dates";
import { database, type Database, type Transaction } from "~/platform/db/client.server";
import { eventAttendance, events, pels, profiles, ticketPurchases } from "~/platform/db/schema";
import { AUDIENCES, type Audience } from "./messages.form";

/** A member a message is for, and whether their choices leave it out. */
export type Recipient = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  /** The member switched this kind of message off: they are named in the record, and not sent it. */
  leftOut: boolean;
};

/** Event groups are "event messages" (for those with a place or a listing); the rest are club news. */
export function choiceOf(audience: AudienceKind): MessageChoice {
  return AUDIENCES[audience].forEvent ? "events" : "news";
}

/** The event, as a group's name and the records give it; undefined for an event the site does not have. */
export async function eventNamed(eventId: string, db?: Database | Transaction) {
  const [event] = await (db ?? (await database()))
    .select({ id: events.id, title: events.title, date: events.date, status: events.status })
    .from(events)
    .where(eq(events.id, eventId));
  return event;
}

/** The group as the record names it: "Players", "On the event's attendance list: Muster (March 14, 2027)". */
export function audienceLabel(audience: AudienceKind, event?: { title: string; date: string }): string {
  const { label } = AUDIENCES[audience];
  return event ? `${label}: ${event.title} (${formatEventDate(event.date)})` : label;
}

const onAttendanceList = (eventId: string) =>
  sql`exists (select 1 from ${eventAttendance} a where a.user_id = ${profiles.id} and a.event_id = ${eventId})`;

/** Who is in each group: the members' condition, over `profiles`. */
function memberCondition({ audience, eventId }: Audience): SQL {
  const event = eventId ?? "";
  switch (audience) {
    case "all":
      return sql`true`;
    case "players":
      return eq(profiles.role, "player");
    case "cast":
      return eq(profiles.role, "cast");
    case "applicants":
      return eq(profiles.role, "applicant");
    case "paid":
      // A place paid on the site, or recorded as paid on the attendance list by a manager.
      return sql`(exists (select 1 from ${ticketPurchases} t where t.user_id = ${profiles.id} and t.event_id = ${event} and t.status = 'paid')
        or exists (select 1 from ${eventAttendance} a where a.user_id = ${profiles.id} and a.event_id = ${event} and a.payment_status = 'paid'))`;
    case "attendance":
      return onAttendanceList(event);
    case "no-pel":
      return sql`${onAttendanceList(event)} and not exists (select 1 from ${pels} l where l.user_id = ${profiles.id} and l.event_id = ${event})`;
    case "no-costume":
      return sql`${onAttendanceList(event)} and ${notApproved(event)}`;
  }
}

/**
 * The members of a group, by name, with whether their choices leave the message out (never for a
 * message that must reach them). A suspended member is never sent one (a deleted member has no
 * row left to find).
 */
export async function recipientsOf(
  audience: Audience & { mustReach?: boolean },
  db?: Database | Transaction,
): Promise<Recipient[]> {
  const choiceColumn = choiceOf(audience.audience) === "news" ? profiles.newsEmails : profiles.eventEmails;
  return (db ?? (await database()))
    .select({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: profiles.email,
      leftOut: audience.mustReach ? sql<boolean>`false` : sql<boolean>`not ${choiceColumn}`,
    })
    .from(profiles)
    .where(and(eq(profiles.banned, false), memberCondition(audience)))
    .orderBy(asc(profiles.lastName), asc(profiles.firstName), asc(profiles.id));
}
