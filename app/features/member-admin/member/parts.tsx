import type { ReactNode } from "react";
import { Form } from "react-router";
import { useConfirmedSubmit } from "~/features/member-admin/Confirm";

/**
 * The building blocks of the managers' page for one member (routes/staff/tools/member.tsx): a titled
 * panel, its facts, and the forms that each post one change, asked first when JavaScript runs
 * (the server asks again when it does not: MemberConfirm.tsx).
 */

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="panel flex flex-col gap-4">
      <h2 id={id} className="text-2xl">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[11rem_1fr]">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-dust">{term}</dt>
          <dd className="break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A form posting one action, asking first with the browser's dialog when JavaScript runs.
 * `danger` marks one that takes something away from the member (suspending, signing them out).
 */
export function ActionForm({
  intent,
  question,
  label,
  busy,
  primary = false,
  danger = false,
  children,
}: {
  intent: string;
  question: string;
  label: string;
  busy: boolean;
  primary?: boolean;
  danger?: boolean;
  children?: ReactNode;
}) {
  const confirmed = useConfirmedSubmit();
  return (
    <Form method="post" className="flex flex-col gap-3" onSubmit={confirmed(question)}>
      <input type="hidden" name="intent" value={intent} />
      {children}
      <div>
        <button
          type="submit"
          className={`btn ${danger ? "btn-danger" : primary ? "btn-primary" : "btn-secondary"}`}
          disabled={busy}
        >
          {label}
        </button>
      </div>
    </Form>
  );
}

/** A button posting one action on one item (`extra` names it); `hidden` tells screen readers which item. */
export function ConfirmedButton({
  intent,
  extra,
  question,
  label,
  hidden,
  busy,
}: {
  intent: string;
  extra: Record<string, string>;
  question: string;
  label: string;
  hidden: string;
  busy: boolean;
}) {
  const confirmed = useConfirmedSubmit();
  return (
    <Form method="post" onSubmit={confirmed(question)}>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(extra).map(([key, value]) => (
        <input key={key} type="hidden" name={key} value={value} />
      ))}
      <button type="submit" className="btn btn-secondary" disabled={busy}>
        {label}
        <span className="sr-only">{hidden}</span>
      </button>
    </Form>
  );
}
