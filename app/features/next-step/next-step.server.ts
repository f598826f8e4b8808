import { canBuildCharacter, isManager, isStaff, type ApplicationStatus, type Role } from "~/game/roles";
import { costumeCountdown, type CostumeStatus } from "~/game/costume";
import type { QueueKind } from "~/game/review-queue";
import { clubToday } from "~/lib/dates";
import { formLinksFor, type NavLink, type SessionUser } from "~/lib/navigation";
import { config } from "~/platform/config.server";
import { memberEventStatuses, type MemberEventStatus } from "~/features/events/event-statuses.server";
import { dayAfterEvent } from "~/features/events/event-times.server";
import { listUpcomingEvents } from "~/features/events/events.server";
import { unreadLetterCount } from "~/features/letters/letter-box.server";
import { getApplication } from "~/features/members/applications.server";
import { pendingApplicationCount } from "~/features/members/pending-applications.server";
import { newEntryCounts } from "~/features/review/review-queue.server";
import { paymentsToLookAt, type PaymentsToLookAt } from "~/features/tickets/attention.server";

/** The member's next event, with where they stand for it. */
export type NextEvent = {
  id: string;
  title: string;
  date: string;
  registration: MemberEventStatus["registration"];
  /** For a member on the list who sends costume photos (players and up), until the event. */
  costume: { status: CostumeStatus; due: string; countdown: string } | null;
};

/** What the signed-in member's part of `/` shows them, each part only for the roles it concerns. */
export type NextStep = {
  firstName: string;
  role: Role;
  /** An applicant's application: "none" before they send one. Null for the other roles. */
  application: { status: ApplicationStatus | "none"; sentAt: string | null } | null;
  /** The soonest event the member is on the list of, else the soonest upcoming one; null when none is announced. */
  nextEvent: NextEvent | null;
  /** Events held lately that the member attended and wrote no post-event letter about, latest first. */
  lettersDue: { id: string; title: string; date: string }[];
  /** Letters in their letter box they have not opened (null: the count could not be read). */
  unreadLetters: number | null;
  /** The member forms their role may open, as the header's Forms menu lists them. */
  forms: NavLink[];
  /** Cast and managers: each review queue with its entries not answered yet. */
  queues: Record<QueueKind, number> | null;
  /** Managers: applications waiting for a decision, and ticket payments to look at (null without ticket sales). */
  manager: { applications: number; payments: PaymentsToLookAt | null } | null;
};

const none = async () => null;

/**
 * Everything the member's part of `/` shows, read at once: each read is one another page already
 * makes (the events page's member rows and costume standing, the navigation's unread count, the
 * tools page's queue counts), and every one but the managers' payments is kept in memory until
 * the database announces a write to what it reads.
 */
export async function nextStepFor(user: SessionUser, now = new Date()): Promise<NextStep> {
  const today = clubToday(now, config().clubTimeZone);
  const staff = isStaff(user.role);
  const manager = isManager(user.role);
  const [{ ahead, mine }, unreadLetters, application, queues, applications, payments] = await Promise.all([
    listUpcomingEvents().then(async (upcoming) => {
      // An event still marked future after its weekend is over is for its letter, not the next one.
      const ahead = upcoming.filter((event) => today < dayAfterEvent(event.date));
      return { ahead, mine: await memberEventStatuses(user.id, ahead, today) };
    }),
    unreadLetterCount(user.id),
    user.role === "applicant" ? getApplication(user.id) : none(),
    staff ? newEntryCounts() : none(),
    manager ? pendingApplicationCount() : none(),
    manager ? paymentsToLookAt() : none(),
  ]);
  const next = ahead.find((event) => mine.byEvent[event.id]?.registration !== "not registered") ?? ahead[0];
  return {
    firstName: user.firstName,
    role: user.role,
    application:
      user.role === "applicant"
        ? { status: application?.status ?? "none", sentAt: application?.createdAt.toISOString() ?? null }
        : null,
    nextEvent: next ? nextEvent(next, mine.byEvent[next.id]!, user.role, today) : null,
    lettersDue: mine.lettersDue,
    unreadLetters,
    forms: formLinksFor(user.role),
    queues,
    manager: manager ? { applications: applications ?? 0, payments } : null,
  };
}

function nextEvent(
  event: { id: string; title: string; date: string },
  status: MemberEventStatus,
  role: Role,
  today: string,
): NextEvent {
  const sendsPhotos = canBuildCharacter(role) && status.registration !== "not registered" && status.costumePhotoDue;
  return {
    id: event.id,
    title: event.title,
    date: event.date,
    registration: status.registration,
    costume: sendsPhotos
      ? {
          status: status.costumePhoto,
          due: status.costumePhotoDue!,
          countdown: costumeCountdown(status.costumePhotoDue!, today),
        }
      : null,
  };
}
