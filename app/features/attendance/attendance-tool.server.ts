import { and, asc, eq, ne } from "drizzle-orm";
import type { Cabin } from "~/game/cabins";
import type { PaymentStatus } from "~/game/roles";
import { USER_SEARCH_MAX_RESULTS, USER_SEARCH_MIN_CHARS } from "~/game/rules";
import type { SessionUser } from "~/lib/navigation";
import { audit } from "~/platform/audit.server";
import { database, type Transaction } from "~/platform/db/client.server";
import { applications, characters, eventAttendance, events, profiles } from "~/platform/db/schema";
import { memberMatches } from "~/platform/db/search.server";
import { eventWithAttendees } from "./attendance.server";
import { cabinProblem } from "~/features/club-facts/cabins/cabins.server";

// The attendance tool (routes/staff/attendance/attendance-tool.tsx): finding a member, registering
// them at an event, and the event's registrations listed beside the form.

export type UserMatch = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  characterName: string | null;
};

/** Members whose first name, last name or email contains the term (at least 2 characters), at most 10. */
export async function searchUsers(term: string): Promise<UserMatch[]> {
  const typed = term.trim();
  if (typed.length < USER_SEARCH_MIN_CHARS) return [];
  const db = await database();
  return db
    .select({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: profiles.email,
      characterName: characters.characterName,
    })
    .from(profiles)
    .leftJoin(characters, eq(characters.userId, profiles.id))
    .where(memberMatches(typed))
    .orderBy(asc(profiles.firstName), asc(profiles.lastName))
    .limit(USER_SEARCH_MAX_RESULTS);
}

export const CABIN_REFUSALS = {
  unknown: "Please choose a cabin from the list.",
  retired: (name: string) => `${name} is retired and no longer given. Please choose a cabin from the list.`,
} as const;

/**
 * The cabin the tool records: none, or one of the club's cabins not retired (a page opened
 * before a cabin was retired or renamed may still send it). The record keeps the name as it is.
 */
export async function cabinToGive(value: string | undefined): Promise<{ cabin: Cabin | null } | { message: string }> {
  if (!value) return { cabin: null };
  const problem = await cabinProblem(value);
  if (problem === "unknown") return { message: CABIN_REFUSALS.unknown };
  if (problem === "retired") return { message: CABIN_REFUSALS.retired(value) };
  return { cabin: value };
}

/** Why a member needs the manager's second look before being registered. */
export type RegistrationWarning = "applicant" | "rejected";

/** Who was registered and where: the tool's notice names both. */
export type Registered = { name: string; event: { title: string; date: string } };

export type AddOutcome =
  | ({ outcome: "added" | "duplicate" } & Registered)
  | { outcome: "not-found" }
  | { outcome: "unconfirmed"; warning: RegistrationWarning; name: string };

/**
 * Records a member at an event as paid, keeping their character's name as it is now.
 * A member is registered once per event; a second try says so and changes nothing.
 * An applicant, or anyone whose application was rejected, is only registered once the
 * manager has confirmed it: such a registration is nearly always a mis-click in the list.
 */
export async function addAttendance(
  actor: SessionUser,
  input: { eventId: string; userId: string; cabin: Cabin | null; confirmed?: boolean },
): Promise<AddOutcome> {
  const db = await database();
  return db.transaction(async (tx: Transaction) => {
    const [member] = await tx
      .select({
        id: profiles.id,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
        role: profiles.role,
        application: applications.status,
        characterName: characters.characterName,
      })
      .from(profiles)
      .leftJoin(characters, eq(characters.userId, profiles.id))
      .leftJoin(applications, eq(applications.userId, profiles.id))
      .where(eq(profiles.id, input.userId));
    const [event] = await tx
      .select({ id: events.id, title: events.title, date: events.date })
      .from(events)
      .where(and(eq(events.id, input.eventId), ne(events.status, "cancelled")));
    if (!member || !event) return { outcome: "not-found" };
    const name = `${member.firstName} ${member.lastName}`;
    const registered = { name, event: { title: event.title, date: event.date } };
    const warning: RegistrationWarning | null =
      member.application === "rejected" ? "rejected" : member.role === "applicant" ? "applicant" : null;
    if (warning && !input.confirmed) return { outcome: "unconfirmed", warning, name };
    const inserted = await tx
      .insert(eventAttendance)
      .values({
        eventId: event.id,
        userId: member.id,
        cabin: input.cabin,
        paymentStatus: "paid",
        characterName: member.characterName,
        createdBy: actor.id,
      })
      .onConflictDoNothing({ target: [eventAttendance.userId, eventAttendance.eventId] })
      .returning({ id: eventAttendance.id });
    if (inserted.length === 0) return { outcome: "duplicate", ...registered };
    await audit(tx, {
      actorId: actor.id,
      action: "attendance.add",
      subjectId: member.id,
      details: { eventId: event.id, cabin: input.cabin, ...(warning ? { confirmed: warning } : {}) },
    });
    return { outcome: "added", ...registered };
  });
}

export type Registration = {
  userId: string;
  name: string;
  characterName: string | null;
  cabin: Cabin | null;
  paymentStatus: PaymentStatus;
};

/**
 * Everyone registered for an event, paid or not (a member is registered once, whichever it is),
 * by last then first name, with the character recorded with them and their cabin; null for an
 * id that names no event.
 */
export async function eventRegistrations(
  eventId: string,
): Promise<{ id: string; title: string; date: string; rows: Registration[] } | null> {
  const event = await eventWithAttendees<Omit<Registration, "name"> & { firstName: string; lastName: string }>(
    eventId,
    {
      userId: eventAttendance.userId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      characterName: eventAttendance.characterName,
      cabin: eventAttendance.cabin,
      paymentStatus: eventAttendance.paymentStatus,
    },
    { everyone: true },
  );
  if (!event) return null;
  return {
    ...event,
    rows: event.rows.map(({ firstName, lastName, ...row }) => ({ ...row, name: `${firstName} ${lastName}` })),
  };
}
