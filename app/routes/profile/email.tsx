import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/email";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { PasswordField } from "~/features/accounts/PasswordField";
import { ProfileLayout } from "~/features/members/ProfileLayout";
import { Alert } from "~/components/ui/Alert";
import { Field } from "~/components/ui/Field";
import { ChangeEmailForm, EMAIL_CHANGE_MESSAGES } from "~/features/accounts/email-code.form";
import { type FieldErrors, parseForm } from "~/web/forms/kernel";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { canBuildCharacter } from "~/game/roles";
import { failSafely } from "~/web/actions.server";
import { requestEmailChange } from "~/features/accounts/email-change.server";
import { requireAccess } from "~/web/guards.server";

export function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const url = new URL(request.url);
  return {
    canHaveCharacter: canBuildCharacter(user.role),
    email: user.email,
    changed: url.searchParams.get("changed") === "1",
  };
}

type ActionData = { ok?: string; message?: string; errors?: FieldErrors; newEmail?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const parsed = await parseForm(request, ChangeEmailForm);
  if (!parsed.ok) return data<ActionData>({ errors: parsed.errors, newEmail: parsed.values.newEmail }, { status: 400 });
  const { newEmail, currentPassword } = parsed.data;
  return failSafely<ActionData>(
    "asking to change an email address",
    { message: EMAIL_CHANGE_MESSAGES.failed, newEmail },
    async () => {
      const outcome = await requestEmailChange(request, user, { newEmail, currentPassword });
      if (!outcome.ok) {
        // A message about one field is shown under it, once; any other above the form.
        if (outcome.field)
          return data<ActionData>(
            { errors: { [outcome.field]: outcome.message }, newEmail },
            { status: outcome.status },
          );
        return data<ActionData>({ message: outcome.message, newEmail }, { status: outcome.status });
      }
      return data<ActionData>({ ok: EMAIL_CHANGE_MESSAGES.sent(newEmail) });
    },
  );
}

export default function ProfileEmail({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <ProfileLayout canHaveCharacter={loaderData.canHaveCharacter} active="email">
      <section aria-labelledby="email-heading" className="panel flex flex-col gap-4">
        <h2 id="email-heading" className="text-2xl">
          Email address
        </h2>
        <p>
          You sign in with <strong className="break-all">{loaderData.email}</strong>, and the site&apos;s letters go
          there.
        </p>
        {loaderData.changed && !actionData ? (
          <Alert kind="success">{EMAIL_CHANGE_MESSAGES.changed(loaderData.email)}</Alert>
        ) : null}
        {actionData?.ok ? <Alert kind="success">{actionData.ok}</Alert> : null}
        {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
        <p className="text-dust">
          To use another address, enter it with your current password. We send a link to the new address; your address
          changes only when you follow it (within the hour, signed in), and we then tell your old address.
        </p>
        {/* Keyed on the outcome, so a success empties the fields. */}
        <Form key={actionData?.ok ? "sent" : "form"} method="post" noValidate className="flex max-w-md flex-col gap-4">
          <Field
            label="New email address"
            name="newEmail"
            type="email"
            autoComplete="email"
            required
            defaultValue={actionData?.ok ? "" : actionData?.newEmail}
            error={actionData?.errors?.newEmail}
          />
          <PasswordField
            label="Current password"
            name="currentPassword"
            autoComplete="current-password"
            required
            error={actionData?.errors?.currentPassword}
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? "Sending…" : "Send confirmation link"}
          </button>
        </Form>
      </section>
    </ProfileLayout>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Email Address · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Email address", SUBMISSION_MESSAGES.loadFailed);
