import { useEffect, useRef } from "react";
import { Form, useLocation } from "react-router";
import { Icon } from "~/components/Icon";
import { Link } from "~/components/Link";
import { SavedNotice } from "~/components/SavedNotice";
import { Alert } from "~/components/ui/Alert";
import { formatEventDate } from "~/lib/dates";
import { useHydrated } from "~/lib/use-hydrated";
import type { Registration } from "./attendance-tool.server";

// The attendance tool's parts (routes/staff/attendance/attendance-tool.tsx): the answer to a
// press, shown where the press was, and the chosen event's registrations beside the form.

/** The specification's words for a registration made; the notice names the member and event after them. */
export const ADDED = "Attendance added successfully!";

/** The id the answer is found by: a page posted without JavaScript opens scrolled to it. */
export const ANSWER_ID = "attendance-answer";

export type Choices = { eventId: string; userId: string; cabin: string };
export type Warning = { text: string; name: string };
export type Added = { userId: string; name: string; event: { title: string; date: string } };

/**
 * Where the tool's forms post. Without JavaScript, to the page's own address and the answer's
 * fragment, so the page that comes back opens at the answer under the button, not at its top.
 * With it, to the page itself: the window stays where the press was (React Router moves it only
 * for a fragment, and then to the top of the screen), and the answer scrolls itself into view.
 */
export function useAnswerAction(): string | undefined {
  const { pathname, search } = useLocation();
  return useHydrated() ? undefined : `${pathname}${search}#${ANSWER_ID}`;
}

/** "Ada Fox is registered for Cabin Night (Friday, July 18, 2025)." */
export function registeredText({ name, event }: Omit<Added, "userId">, already = false): string {
  return `${name} is ${already ? "already " : ""}registered for ${event.title} (${formatEventDate(event.date)}).`;
}

/**
 * What the last press came to, right under the button pressed: on a phone the top of the form is
 * out of view by then. The success notice still goes after 3 seconds (SavedNotice); the window
 * moves only as far as needed to show the answer.
 */
export function ToolAnswer({
  answer,
  busy,
}: {
  answer: { at: number; added?: Added; message?: string; warning?: Warning; choices: Choices } | undefined;
  busy: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const at = answer?.at;
  useEffect(() => {
    if (at !== undefined) box.current?.scrollIntoView({ block: "nearest" });
  }, [at]);
  return (
    <div id={ANSWER_ID} ref={box} className="flex flex-col gap-3 empty:hidden">
      {answer?.added ? <SavedNotice key={answer.at} message={`${ADDED} ${registeredText(answer.added)}`} /> : null}
      {answer?.message ? <Alert kind="error">{answer.message}</Alert> : null}
      {answer?.warning ? <ConfirmRegistration warning={answer.warning} choices={answer.choices} busy={busy} /> : null}
    </div>
  );
}

/** The second step for an applicant or a rejected applicant: a form of its own, so it works without JavaScript. */
function ConfirmRegistration({ warning, choices, busy }: { warning: Warning; choices: Choices; busy: boolean }) {
  const action = useAnswerAction();
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-md border border-brass/70 bg-brass/10 px-4 py-3 text-parchment"
    >
      <p className="flex items-start gap-3">
        <Icon name="triangle-alert" className="mt-0.5 size-5 shrink-0 text-brass" />
        <span>{`${warning.text} Nothing was recorded. Register ${warning.name} anyway?`}</span>
      </p>
      <Form method="post" action={action} className="flex flex-wrap gap-2">
        <input type="hidden" name="eventId" value={choices.eventId} />
        <input type="hidden" name="userId" value={choices.userId} />
        <input type="hidden" name="cabin" value={choices.cabin} />
        <input type="hidden" name="confirm" value="yes" />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Register anyway
        </button>
      </Form>
    </div>
  );
}

const PAYMENT_NOTE: Record<Registration["paymentStatus"], string | null> = { paid: null, unpaid: "Not paid" };

/**
 * Who is registered for the event chosen in the form, so a manager sees at a glance who is still
 * missing; each name leads to the member's page. The member just added is marked.
 */
export function Registrations({
  event,
  justAdded,
}: {
  event: { title: string; date: string; rows: Registration[] } | null;
  justAdded: string | null;
}) {
  return (
    // Beside the form it stays in sight while the form is scrolled (a long list scrolls on its own).
    <section
      aria-labelledby="registrations-title"
      className="panel flex flex-col gap-3 md:sticky md:top-20 md:max-h-[calc(100dvh-6rem)] md:overflow-y-auto"
    >
      <h2 id="registrations-title" className="text-2xl">
        Registered
      </h2>
      {!event ? (
        <p className="text-dust">Choose an event to see who is registered for it.</p>
      ) : (
        <>
          <p className="text-dust">
            <span className="text-parchment">{event.title}</span>
            {` (${formatEventDate(event.date)}): `}
            <span data-testid="registration-count">
              {event.rows.length === 0 ? "nobody yet" : `${event.rows.length} registered`}
            </span>
          </p>
          {event.rows.length > 0 ? (
            <ul aria-labelledby="registrations-title" className="flex flex-col divide-y divide-timber/60">
              {event.rows.map((row) => (
                <li key={row.userId} className="flex flex-col py-2">
                  <span className="flex flex-wrap items-baseline gap-x-2">
                    <Link to={`/tools/members/${row.userId}`} className="font-bold">
                      {row.name}
                    </Link>
                    {row.userId === justAdded ? <span className="text-sm font-bold text-sage">Just added</span> : null}
                    {PAYMENT_NOTE[row.paymentStatus] ? (
                      <span className="text-sm font-bold text-brass">{PAYMENT_NOTE[row.paymentStatus]}</span>
                    ) : null}
                  </span>
                  <span className="text-sm text-dust">{`${row.characterName ?? "No character"} · ${row.cabin ?? "Not assigned"}`}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </section>
  );
}
