import type { FormEvent } from "react";
import { Form, useLocation, useSubmit } from "react-router";
import { Link } from "~/components/Link";
import { ROLE_LABELS, type Role } from "~/game/roles";

/**
 * A change the server was asked for without `confirm=yes`: it answers with this instead of
 * making the change, so a browser without JavaScript gets the same confirmation step as the
 * dialog gives everyone else.
 */
export type PendingConfirmation =
  | { intent: "role"; userId: string; role: Role; name: string; from: Role }
  | { intent: "accept" | "reject"; applicationId: string; name: string };

export function confirmationQuestion(pending: PendingConfirmation): string {
  if (pending.intent === "role")
    return `Are you sure you want to change ${pending.name}'s role from ${ROLE_LABELS[pending.from]} to ${ROLE_LABELS[pending.role]}?`;
  return applicationQuestion(pending.intent, pending.name);
}

export function applicationQuestion(intent: "accept" | "reject", name: string): string {
  return intent === "accept" ? `Accept ${name}'s application? They will be emailed.` : `Reject ${name}'s application?`;
}

/**
 * A form's submit handler that asks the question first and, once answered yes, posts the form
 * with `confirm=yes`, so the server acts at once. Cancelling calls `onCancel`.
 */
export function useConfirmedSubmit() {
  const submit = useSubmit();
  return (question: string, onCancel?: () => void) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!window.confirm(question)) {
      onCancel?.();
      return;
    }
    const fields = new FormData(event.currentTarget);
    fields.set("confirm", "yes");
    void submit(fields, { method: "post" });
  };
}

/** The server's confirmation step: names the member and the change, posts it again with confirm=yes, or goes back. */
export function ConfirmPanel({ pending, busy }: { pending: PendingConfirmation; busy: boolean }) {
  const { search } = useLocation();
  const fields: Record<string, string> =
    pending.intent === "role"
      ? { intent: "role", userId: pending.userId, role: pending.role }
      : { intent: pending.intent, applicationId: pending.applicationId };
  const yes =
    pending.intent === "role"
      ? `Yes, make them ${ROLE_LABELS[pending.role]}`
      : pending.intent === "accept"
        ? "Yes, accept"
        : "Yes, reject";
  return (
    <section aria-labelledby="confirm-title" className="flex flex-col gap-4 rounded-md border-2 border-brass p-4">
      <h3 id="confirm-title" className="text-xl">
        Please confirm
      </h3>
      <p>{confirmationQuestion(pending)}</p>
      <div className="flex flex-wrap items-center gap-3">
        <Form method="post">
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="confirm" value="yes" />
          <button
            type="submit"
            className={`btn ${pending.intent === "reject" ? "btn-secondary" : "btn-primary"}`}
            disabled={busy}
          >
            {yes}
          </button>
        </Form>
        <Link to={search || "?"} className="btn btn-secondary">
          Cancel
        </Link>
      </div>
    </section>
  );
}
