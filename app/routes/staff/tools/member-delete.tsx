import type { ReactNode } from "react";
import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import type { Route } from "./+types/member-delete";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { ConfirmCheckbox } from "~/components/ui/Field";
import { DeletionStatement } from "~/features/accounts/DeletionStatement";
import { DELETION_MESSAGES, ManagerDeleteForm } from "~/features/accounts/account-deletion.form";
import { type FieldErrors, parseForm } from "~/web/forms/kernel";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { failSafely } from "~/web/actions.server";
import { deleteAccount, memberToDelete } from "~/features/accounts/account-deletion.server";
import { requireAccess } from "~/web/guards.server";

/** A manager deletes a member's account (audited), after a page saying what that does. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const manager = requireAccess(context, request, "manager");
  const member = await memberToDelete(params.id);
  if (!member) throw data("Not found", { status: 404 });
  return { member: member.deleted ? null : member, self: member.id === manager.id };
}

type ActionData = { message?: string; errors?: FieldErrors; deleted?: boolean };

export async function action({ request, context, params }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const member = await memberToDelete(params.id);
  if (!member) return data<ActionData>({ message: "There is no such member." }, { status: 404 });
  if (member.deleted) return data<ActionData>({ message: DELETION_MESSAGES.alreadyDeleted }, { status: 409 });
  if (member.id === manager.id)
    return data<ActionData>(
      { message: "Your own account is deleted from your profile's My data page." },
      { status: 400 },
    );
  if (member.role === "manager") return data<ActionData>({ message: DELETION_MESSAGES.managerTarget }, { status: 409 });
  const parsed = await parseForm(request, ManagerDeleteForm);
  if (!parsed.ok) return data<ActionData>({ errors: parsed.errors }, { status: 400 });
  return failSafely<ActionData>("deleting a member's account", { message: DELETION_MESSAGES.failed }, async () => {
    const outcome = await deleteAccount(member.id, { actorId: manager.id });
    if (!outcome.ok) return data({ message: outcome.message }, { status: outcome.status });
    return data({ deleted: true });
  });
}

export default function MemberDelete({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const { member, self } = loaderData;
  if (!member) {
    return (
      <DeletePage heading="Account deleted">
        {actionData?.deleted ? (
          <Alert kind="success">The account is deleted. This is recorded in the audit log.</Alert>
        ) : (
          <p>{DELETION_MESSAGES.alreadyDeleted}</p>
        )}
        <Link to="/tools" className="btn btn-secondary self-start">
          Back to Tools
        </Link>
      </DeletePage>
    );
  }
  const fullName = `${member.firstName} ${member.lastName}`;
  return (
    <DeletePage heading={`Delete the account of ${fullName}?`}>
      {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
      <p>This cannot be undone, and it is recorded in the audit log under your name.</p>
      <DeletionStatement whose="their" />
      {self ? (
        <p>
          This is your own account: delete it from your profile's <Link to="/profile/data">My data</Link> page.
        </p>
      ) : member.role === "manager" ? (
        <p>{DELETION_MESSAGES.managerTarget}</p>
      ) : (
        <Form method="post" noValidate className="flex flex-col gap-4">
          <ConfirmCheckbox error={actionData?.errors?.confirm}>
            I confirm that the account of {fullName} and the data listed above are to be deleted for good.
          </ConfirmCheckbox>
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn btn-danger" disabled={busy}>
              Delete this account
            </button>
            <Link to="/tools" className="btn btn-secondary">
              Cancel
            </Link>
          </div>
        </Form>
      )}
    </DeletePage>
  );
}

/** The page's frame, the same whether the account is still there or already deleted. */
function DeletePage({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-5xl">Delete an account</h1>
      <hr className="divider my-6" />
      <section aria-labelledby="delete-heading" className="panel flex flex-col gap-4">
        <h2 id="delete-heading" className="text-2xl">
          {heading}
        </h2>
        {children}
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Delete an account · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Delete an account", SUBMISSION_MESSAGES.loadFailed);
