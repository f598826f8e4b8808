import { formatClubTime } from "~/lib/dates";
import { CLUB_PAGES } from "~/features/club-facts/club-pages";
import type { FactChanges } from "~/features/club-facts/changes";
import { WhatChanged } from "~/features/club-facts/WhatChanged";
import {
  isMemberAdminAuditAction,
  MEMBER_ADMIN_AUDIT_ACTIONS,
  memberAdminAuditDetail,
} from "~/features/member-admin/member-admin-audit";
import { countOf } from "~/lib/plural";
import { formatDollars } from "~/game/merchant";
import { Pager, ResultCount } from "~/components/ListControls";

const ACTIONS: Record<string, string> = {
  ...MEMBER_ADMIN_AUDIT_ACTIONS,
  "role.change": "changed the role of",
  "application.decide": "decided the application of",
  "attendance.add": "recorded the attendance of",
  "emergency_contacts.view": "opened the emergency contacts",
  "outbox.retry": "retried a message in the outbox",
  "outbox.discard": "discarded a message in the outbox",
  "first_manager.create": "became the first manager with the set-up link, as",
  "import.run": "imported members and their records from the old site",
  "costume.approve": "approved the costume photos of",
  "costume.request_changes": "asked for costume changes from",
  "letter.release": "released a letter written by",
  "letter.answer": "answered, as an NPC, a letter written by",
  "queue.take": "took a review entry of",
  "queue.hand_back": "handed back a review entry of",
  "queue.set_status": "set the status of a review entry of",
  "queue.reply": "replied to a review entry of",
  "attendance.remove_unpaid": "took off an event's list, unpaid,",
  "attendance.record_payment": "recorded a payment made another way by",
  "ticket.paid": "recorded the ticket paid for by",
  "ticket.refunded": "refunded the ticket of",
  "ticket.check": "checked the ticket payments with Stripe",
  "ticket.notice_dealt_with": "marked a notice from Stripe dealt with",
  "club_facts.save": "changed the club's facts",
  "message.send": "sent a message to members",
  "message.test": "sent themselves a test of a message",
  "message.choices": "changed the messages received by",
};

/** A member's choices of the managers' messages, as the audit log names them. */
const MESSAGE_CHOICE_NAMES: Record<string, string> = { news: "club news", events: "event messages" };

/** Why a ticket was refunded, in the audit log's words. */
const REFUNDED_BECAUSE: Record<string, string> = {
  manager: "by a manager on the site",
  stripe: "at Stripe",
  "event-full": "the event had filled",
  "event-cancelled": "the event was cancelled",
  "account-deleted": "the account was deleted",
};

/** Who acted: the member, or an operator's tool with no account of its own (`details.operator`). */
function actorOf(entry: Entry): string {
  if (entry.actorName) return entry.actorName;
  const operator = entry.details?.operator;
  if (operator === "cli") return "The admin command (npm run admin)";
  if (typeof operator === "string") return `An operator (${operator})`;
  // Payments and refunds recorded from Stripe's notices have no member behind them.
  if (entry.action === "ticket.paid" || entry.action === "ticket.refunded") return "Stripe";
  if (entry.action === "message.choices" && entry.details?.by === "unsubscribe link") return "An unsubscribe link";
  return "A removed member";
}

/** An attendance the manager confirmed after the tool's warning (see addAttendance). */
const CONFIRMED: Record<string, string> = {
  applicant: "confirmed although an applicant",
  rejected: "confirmed although their application was rejected",
};

function detail(action: string, details: Record<string, unknown> | null): string {
  if (isMemberAdminAuditAction(action)) return memberAdminAuditDetail(action, details);
  if (!details) return "";
  if (action === "role.change") return `${String(details.from)} → ${String(details.to)}`;
  if (action === "application.decide") return String(details.decision ?? "");
  if (action === "attendance.add")
    return [details.cabin ? `cabin ${String(details.cabin)}` : "no cabin", CONFIRMED[String(details.confirmed)]]
      .filter(Boolean)
      .join(", ");
  if (action === "outbox.retry" || action === "outbox.discard")
    return `${String(details.kind)}, after ${countOf(Number(details.attempts), "attempt")}`;
  if (action === "import.run")
    return `${countOf(Number(details.imported), "row")} imported, ${Number(details.updated)} updated`;
  if (action === "costume.approve" || action === "costume.request_changes")
    return details.event ? `for ${String(details.event)}` : "";
  if (action === "letter.answer") return details.as ? `as ${String(details.as)}` : "";
  if (action.startsWith("queue.")) return `${String(details.kind)}: ${String(details.from)} → ${String(details.to)}`;
  if (action === "ticket.paid")
    return typeof details.amountCents === "number" ? formatDollars(details.amountCents) : "";
  if (action === "ticket.refunded")
    return [
      typeof details.amountRefundedCents === "number" ? formatDollars(details.amountRefundedCents) : "",
      REFUNDED_BECAUSE[String(details.reason)],
    ]
      .filter(Boolean)
      .join(", ");
  if (action === "ticket.notice_dealt_with") return String(details.stripeEventId ?? "");
  if (action === "club_facts.save")
    return `${CLUB_FACT_NAMES[String(details.kind)] ?? String(details.kind)} version ${String(details.version)}${
      typeof details.restoredFrom === "number" ? `, bringing back version ${details.restoredFrom}` : ""
    }`;
  if (action === "message.send")
    return `${String(details.group)}: ${countOf(Number(details.queued), "copy", "copies")} to send, ${String(details.leftOut)} left out${details.discord ? ", and on Discord" : ""}`;
  if (action === "message.test") return `“${String(details.subject)}”`;
  if (action === "message.choices")
    return `${MESSAGE_CHOICE_NAMES[String(details.choice)] ?? String(details.choice)} ${details.receive === true ? "on" : "off"}`;
  if (action === "emergency_contacts.view") return details.search ? `searching “${String(details.search)}”` : "";
  return "";
}

/** The club's facts by the name the tools give them. */
const CLUB_FACT_NAMES: Record<string, string> = Object.fromEntries(CLUB_PAGES.map((page) => [page.kind, page.title]));

/** What a save of the club's facts changed (made from its before and after by loadAuditPage). */
function factChanges(entry: Entry): FactChanges | null {
  if (entry.action !== "club_facts.save") return null;
  const changes = entry.details?.changes as FactChanges | undefined;
  return changes && Array.isArray(changes.added) ? changes : null;
}

type Entry = {
  id: string;
  action: string;
  details: Record<string, unknown> | null;
  createdAt: string | Date;
  actorName: string | null;
  subjectName: string | null;
};

/** Who did what to whom, and when: role changes, decisions, attendance and emergency-contact visits. */
export function AuditTab({ list }: { list: { rows: Entry[]; total: number; page: number; lastPage: number } }) {
  return (
    <div className="flex flex-col gap-4">
      <ResultCount total={list.total} noun="entry" plural="entries" />
      <ol className="flex flex-col divide-y divide-timber/60">
        {list.rows.map((entry) => (
          <li key={entry.id} className="py-3">
            <p>{`${actorOf(entry)} ${ACTIONS[entry.action] ?? entry.action}${entry.subjectName ? ` ${entry.subjectName}` : ""}`}</p>
            <p className="text-sm text-dust">
              {[formatClubTime(entry.createdAt), detail(entry.action, entry.details)].filter(Boolean).join(" · ")}
            </p>
            {factChanges(entry) ? <WhatChanged label="in this save" changes={factChanges(entry)!} /> : null}
          </li>
        ))}
      </ol>
      <Pager page={list.page} lastPage={list.lastPage} />
    </div>
  );
}
