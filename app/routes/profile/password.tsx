import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/password";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { NewPasswordFields } from "~/features/accounts/NewPasswordFields";
import { PasswordField } from "~/features/accounts/PasswordField";
import { ProfileLayout } from "~/features/members/ProfileLayout";
import { Alert } from "~/components/ui/Alert";
import { ChangePasswordForm, newPasswordMessage } from "~/features/accounts/auth.form";
import { type FieldErrors, parseForm } from "~/web/forms/kernel";
import { SITE_MESSAGES } from "~/web/forms/messages";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { canBuildCharacter } from "~/game/roles";
import { failSafely } from "~/web/actions.server";
import { changePassword } from "~/features/accounts/password-changes.server";
import { requireAccess } from "~/web/guards.server";

export function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  return { canHaveCharacter: canBuildCharacter(user.role) };
}

type ActionData = { ok?: string; message?: string; errors?: FieldErrors };

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const parsed = await parseForm(request, ChangePasswordForm);
  if (!parsed.ok) {
    // The same summary as sign-up and reset give for these two rules.
    const { errors } = parsed;
    return data<ActionData>({ errors, message: newPasswordMessage(errors) }, { status: 400 });
  }
  return failSafely<ActionData>("changing a password", { message: SITE_MESSAGES.passwordChangeFailed }, async () => {
    const { currentPassword, password, signOutOthers } = parsed.data;
    const outcome = await changePassword(request, user, {
      currentPassword,
      newPassword: password,
      signOutOthers: signOutOthers === "on",
    });
    if (!outcome.ok) {
      // A message about one field is shown under it, once; any other above the form.
      if (outcome.field) return data({ errors: { [outcome.field]: outcome.message } }, { status: outcome.status });
      return data({ message: outcome.message }, { status: outcome.status });
    }
    // With the other sessions ended, this one was replaced: its new cookie keeps this device signed in.
    const headers = new Headers();
    for (const cookie of outcome.setCookies) headers.append("Set-Cookie", cookie);
    return data({ ok: SITE_MESSAGES.passwordChanged }, { headers });
  });
}

function PasswordForm({ errors, busy }: { errors?: FieldErrors; busy: boolean }) {
  return (
    <Form method="post" noValidate className="flex max-w-md flex-col gap-4">
      <PasswordField
        label="Current password"
        name="currentPassword"
        autoComplete="current-password"
        required
        error={errors?.currentPassword}
      />
      <NewPasswordFields errors={errors} label="New password" confirmLabel="Confirm new password" />
      <label className="flex items-center gap-2">
        <input type="checkbox" name="signOutOthers" defaultChecked className="size-5" />
        Sign out of all other devices
      </label>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? "Saving…" : "Change password"}
      </button>
    </Form>
  );
}

export default function ProfilePassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <ProfileLayout canHaveCharacter={loaderData.canHaveCharacter} active="password">
      <section aria-labelledby="password-heading" className="panel flex flex-col gap-4">
        <h2 id="password-heading" className="text-2xl">
          Password
        </h2>
        {actionData?.ok ? <Alert kind="success">{actionData.ok}</Alert> : null}
        {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
        {/* Keyed on the outcome, so a success empties the fields and the checklist. */}
        <PasswordForm key={actionData?.ok ? "done" : "form"} errors={actionData?.errors} busy={busy} />
      </section>
    </ProfileLayout>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Password · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Password", SUBMISSION_MESSAGES.loadFailed);
