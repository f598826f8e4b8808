import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import type { Route } from "./+types/email-confirm";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { EMAIL_CHANGE_MESSAGES } from "~/features/accounts/email-code.form";
import { readForm } from "~/web/forms/kernel";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { failSafely } from "~/web/actions.server";
import { confirmEmailChange } from "~/features/accounts/email-change.server";
import { requireAccess } from "~/web/guards.server";

/**
 * The link sent to a new email address. Opening it only shows a button: a mail scanner that
 * follows links changes nothing. Pressing it, signed in as the member who asked, makes the
 * change (the library checks the signed token: who, from which address to which, and when).
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token: token.slice(0, 2000), email: user.email };
}

type ActionData = { message?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const fields = await readForm(request);
  return failSafely<ActionData>("confirming an email address", { message: EMAIL_CHANGE_MESSAGES.failed }, async () => {
    const outcome = await confirmEmailChange(request, user, fields.token ?? "");
    if (!outcome.ok) return data<ActionData>({ message: outcome.message }, { status: outcome.status });
    const headers = new Headers();
    for (const cookie of outcome.setCookies) headers.append("Set-Cookie", cookie);
    throw redirect("/profile/email?changed=1", { headers });
  });
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <div className="panel flex flex-col gap-4">
        <h1 className="text-center text-3xl">Confirm your new email address</h1>
        {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
        {/* A refused link is not offered again: it would be refused again. */}
        {actionData?.message ? null : loaderData.token ? (
          <>
            <p>
              Your account&apos;s address is now <strong className="break-all">{loaderData.email}</strong>. Press the
              button to change it to the address this link was sent to.
            </p>
            <Form method="post" noValidate className="flex flex-col gap-4">
              <input type="hidden" name="token" value={loaderData.token} />
              <button type="submit" className="btn btn-primary w-full" disabled={busy}>
                {busy ? "Confirming…" : "Confirm new address"}
              </button>
            </Form>
          </>
        ) : (
          <Alert kind="error">{EMAIL_CHANGE_MESSAGES.linkInvalid}</Alert>
        )}
        <p className="text-center">
          <Link to="/profile/email">Back to your profile</Link>
        </p>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Confirm Your New Email Address · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Confirm your new email address", SUBMISSION_MESSAGES.loadFailed);
