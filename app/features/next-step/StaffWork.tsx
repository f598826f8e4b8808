import type { QueueKind } from "~/game/review-queue";
import { countOf } from "~/lib/plural";
import type { NextStep } from "./next-step.server";
import { StepGroup, StepRow } from "./StepRow";

/** Each review page, as the tools page names it, in the tools page's order. */
const QUEUES: { kind: QueueKind; to: string; label: string }[] = [
  { kind: "pel", to: "/view-pels", label: "Post-event letters" },
  { kind: "order", to: "/view-merchant-orders", label: "Merchant orders" },
  { kind: "research", to: "/view-research", label: "Research papers" },
  { kind: "letter", to: "/view-letters", label: "Letters" },
  { kind: "costume", to: "/view-costumes", label: "Costume photos" },
];

/** What of the ticket payments waits for the managers, in words: "2 to look at: 1 notice from Stripe; 1 member unpaid". */
function paymentsDetail({ notices, unpaid }: { notices: number; unpaid: number }): string {
  if (notices + unpaid === 0) return "nothing to look at";
  const parts = [
    notices > 0 ? `${countOf(notices, "notice")} from Stripe` : "",
    unpaid > 0 ? `${countOf(unpaid, "member")} on a list without a payment` : "",
  ].filter(Boolean);
  return `${notices + unpaid} to look at: ${parts.join("; ")}`;
}

/** The staff's review queues, each with how many of its entries are not answered yet (the tools page's counts). */
export function ReviewQueues({ queues }: { queues: Record<QueueKind, number> }) {
  return (
    <StepGroup id="queues-title" title="Review queues">
      <ul className="flex flex-col gap-2">
        {QUEUES.map(({ kind, to, label }) => (
          <li key={kind}>
            <StepRow
              to={to}
              icon={queues[kind] > 0 ? "circle-alert" : "circle-check"}
              tone={queues[kind] > 0 ? "brass" : "sage"}
              title={label}
              detail={queues[kind] > 0 ? `${queues[kind]} new` : "none new"}
              compact
              testId={`queue-${kind}`}
            />
          </li>
        ))}
      </ul>
    </StepGroup>
  );
}

/** What waits for the managers: applications to decide and, with tickets sold on the site, payments to look at. */
export function ForTheManagers({ manager }: { manager: NonNullable<NextStep["manager"]> }) {
  const { payments } = manager;
  const paymentCount = payments ? payments.notices + payments.unpaid : 0;
  return (
    <StepGroup id="managers-title" title="For the managers">
      <ul className="flex flex-col gap-2">
        <li>
          <StepRow
            to="/tools?tab=applications"
            icon={manager.applications > 0 ? "circle-alert" : "circle-check"}
            tone={manager.applications > 0 ? "brass" : "sage"}
            title="Applications"
            detail={manager.applications > 0 ? `${manager.applications} waiting for a decision` : "none waiting"}
            testId="applications-waiting"
          />
        </li>
        {payments ? (
          <li>
            <StepRow
              to="/attendance"
              icon={paymentCount > 0 ? "triangle-alert" : "circle-check"}
              tone={paymentCount > 0 ? "rust" : "sage"}
              title="Ticket payments"
              detail={paymentsDetail(payments)}
              testId="payments-to-look-at"
            />
          </li>
        ) : null}
      </ul>
    </StepGroup>
  );
}
