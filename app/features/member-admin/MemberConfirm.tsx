import { Form, useLocation } from "react-router";
import { Link } from "~/components/Link";

/**
 * A change to a member's account the server was asked for without `confirm=yes`: it answers
 * with this instead of making it, so a browser without JavaScript confirms too. With
 * JavaScript the form's own dialog (`useConfirmedSubmit`) asks first and posts confirmed.
 */
export type MemberConfirmation = {
  question: string;
  yes: string;
  fields: Record<string, string>;
  /** The change takes something away from the member (a suspension, their sessions): its button is the danger style. */
  danger?: boolean;
};

/** The server's confirmation step: the question, a button that posts the same change confirmed, and Cancel. */
export function MemberConfirmPanel({ pending, busy }: { pending: MemberConfirmation; busy: boolean }) {
  const { pathname, search } = useLocation();
  return (
    <section aria-labelledby="confirm-title" className="flex flex-col gap-4 rounded-md border-2 border-brass p-4">
      <h2 id="confirm-title" className="text-2xl">
        Please confirm
      </h2>
      <p>{pending.question}</p>
      <div className="flex flex-wrap items-center gap-3">
        <Form method="post">
          {Object.entries(pending.fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="confirm" value="yes" />
          <button type="submit" className={`btn ${pending.danger ? "btn-danger" : "btn-primary"}`} disabled={busy}>
            {pending.yes}
          </button>
        </Form>
        <Link to={pathname + search} className="btn btn-secondary">
          Cancel
        </Link>
      </div>
    </section>
  );
}
