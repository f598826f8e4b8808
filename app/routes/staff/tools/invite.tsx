import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import type { Route } from "./+types/invite";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { useConfirmedSubmit } from "~/features/member-admin/Confirm";
import { MemberConfirmPanel, type MemberConfirmation } from "~/features/member-admin/MemberConfirm";
import { Alert } from "~/components/ui/Alert";
import { NameAndEmailFields, RoleSelect } from "~/features/member-admin/MemberFields";
import { checkForm, readForm, type FieldErrors, type FormValues } from "~/web/forms/kernel";
import { InviteForm, MEMBER_ADMIN_MESSAGES } from "~/features/member-admin/member-admin.form";
import { ROLE_LABELS } from "~/game/roles";
import { failSafely } from "~/web/actions.server";
import { requireAccess } from "~/web/guards.server";
import { INVITATION_LINK_DAYS } from "~/features/member-admin/member-admin.server";
import { inviteMember } from "~/features/member-admin/invitations.server";

export function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return { days: INVITATION_LINK_DAYS };
}

type ActionData = { message?: string; errors?: FieldErrors; values?: FormValues; confirm?: MemberConfirmation };

/** Asks first (without `confirm=yes`), then makes the account and sends the invitation, and opens the new member's page. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireAccess(context, request, "manager");
  const fields = await readForm(request);
  const form = checkForm(InviteForm, fields);
  if (!form.ok) return data<ActionData>({ errors: form.errors, values: fields }, { status: 400 });
  const { firstName, lastName, email, role } = form.data;
  return failSafely<ActionData>(
    "inviting a member",
    { message: MEMBER_ADMIN_MESSAGES.inviteFailed, values: fields },
    async () => {
      if (fields.confirm !== "yes") {
        return data({
          confirm: {
            question: `Invite ${firstName} ${lastName} as ${ROLE_LABELS[role]}? An account is made for ${email}, and an email there lets them choose their password.`,
            yes: "Yes, send the invitation",
            fields: { firstName, lastName, email, role },
          },
        });
      }
      const result = await inviteMember(actor, form.data);
      if (result.outcome === "email-taken")
        return data({ errors: { email: MEMBER_ADMIN_MESSAGES.emailTaken }, values: fields }, { status: 409 });
      throw redirect(
        `/tools/members/${encodeURIComponent(result.id)}?invited=${result.outcome === "invited" ? "sent" : "not-sent"}`,
      );
    },
  );
}

export default function ToolsInvite({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const confirmed = useConfirmedSubmit();
  const values = actionData?.values;
  const errors = actionData?.errors;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <p>
        <Link to="/tools?tab=roles">← All members</Link>
      </p>
      <h1 className="text-4xl">Invite a member</h1>
      {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
      {actionData?.confirm ? (
        <MemberConfirmPanel pending={actionData.confirm} busy={busy} />
      ) : (
        <section aria-labelledby="invite-form" className="panel flex flex-col gap-4">
          <h2 id="invite-form" className="text-2xl">
            New account
          </h2>
          <p>
            The account is made at once, with no password. The member is emailed a link to choose one, which works once,
            within {loaderData.days === 1 ? "a day" : `${loaderData.days} days`}; after that they can ask for a new one
            with “Forgot Password?”, or you can send the invitation again from their page.
          </p>
          <Form
            method="post"
            className="flex flex-col gap-4"
            onSubmit={confirmed("Make this account and send the invitation?")}
          >
            <div className="grid gap-4 sm:grid-cols-2">
              <NameAndEmailFields
                defaults={{
                  firstName: values?.firstName ?? "",
                  lastName: values?.lastName ?? "",
                  email: values?.email ?? "",
                }}
                errors={errors}
              />
              <RoleSelect id="invite-role" defaultValue={values?.role ?? "applicant"} error={errors?.role} />
            </div>
            <div>
              <button type="submit" className="btn btn-primary" disabled={busy}>
                Send invitation
              </button>
            </div>
          </Form>
        </section>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Invite a member · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Invite a member", MEMBER_ADMIN_MESSAGES.inviteFailed);
