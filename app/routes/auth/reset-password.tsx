import { Suspense, useEffect } from "react";
import { Await, data, Form, useNavigate, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import { SiteErrorPage } from "~/components/PageErrorBoundary";
import { NoScriptRefresh } from "~/components/NoScriptRefresh";
import type { Route } from "./+types/reset-password";
import { NewPasswordFields } from "~/features/accounts/NewPasswordFields";
import { Alert } from "~/components/ui/Alert";
import { newPasswordMessage, ResetPasswordForm } from "~/features/accounts/auth.form";
import { type FieldErrors, fieldErrors, readForm } from "~/web/forms/kernel";
import { MESSAGES, SITE_MESSAGES } from "~/web/forms/messages";
import { RESET_PASSWORD_REDIRECT_MS } from "~/game/rules";
import { type ResetLinkState, resetLinkState, resetPassword } from "~/features/accounts/password-changes.server";

// docs/product.md#password-reset: "Password updated! Redirecting to login..." and then the home page.
const AFTER_RESET = "/";
// An invited member has never signed in: after choosing their password, the sign-in page.
const AFTER_WELCOME = "/auth";

/**
 * Choosing a password from a link: a reset, or a manager's invitation (its link says `welcome`),
 * the member's first password, which the page welcomes. The wording is all `welcome` changes.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const token = params.get("token") ?? "";
  // Not awaited: the page streams 'Validating reset token...' until the check finishes.
  return { token, state: resetLinkState(token), welcome: params.get("welcome") === "1" };
}

type ActionData = { done?: boolean; welcome?: boolean; message?: string; errors?: FieldErrors; linkInvalid?: boolean };

export async function action({ request }: Route.ActionArgs) {
  const fields = await readForm(request);
  const parsed = ResetPasswordForm.safeParse(fields);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    if (errors.token)
      return data<ActionData>({ message: SITE_MESSAGES.resetLinkInvalid, linkInvalid: true }, { status: 400 });
    return data<ActionData>({ errors, message: newPasswordMessage(errors) }, { status: 400 });
  }
  const welcome = fields.welcome === "1";
  const outcome = await resetPassword(parsed.data.token, parsed.data.password);
  if (!outcome.ok)
    return data<ActionData>(
      { message: outcome.message, linkInvalid: outcome.status === 400 },
      { status: outcome.status },
    );
  return data<ActionData>({ done: true, welcome });
}

const LINK_REFUSALS: Record<Exclude<ResetLinkState, "valid">, string> = {
  invalid: SITE_MESSAGES.resetLinkInvalid,
  replaced: SITE_MESSAGES.invitationReplaced,
};

function InvalidLink({ message }: { message: string }) {
  return (
    <div className="mt-6 flex flex-col gap-4">
      <Alert kind="error">{message}</Alert>
      <Link to="/forgot-password" className="btn btn-primary">
        Ask for a new link
      </Link>
    </div>
  );
}

function Done({ welcome }: { welcome: boolean }) {
  const navigate = useNavigate();
  const next = welcome ? AFTER_WELCOME : AFTER_RESET;
  useEffect(() => {
    const timer = setTimeout(() => navigate(next), RESET_PASSWORD_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate, next]);
  return (
    <div className="mt-6">
      <NoScriptRefresh seconds={RESET_PASSWORD_REDIRECT_MS / 1000} to={next} />
      <Alert kind="success">{welcome ? SITE_MESSAGES.accountReady : MESSAGES.passwordUpdated}</Alert>
    </div>
  );
}

function NewPasswordForm({ token, welcome, actionData }: { token: string; welcome: boolean; actionData?: ActionData }) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <Form method="post" noValidate className="mt-6 flex flex-col gap-4">
      {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
      <input type="hidden" name="token" value={token} />
      {welcome ? <input type="hidden" name="welcome" value="1" /> : null}
      <NewPasswordFields
        errors={actionData?.errors}
        label={welcome ? "Password" : "New password"}
        confirmLabel={welcome ? "Confirm password" : "Confirm new password"}
      />
      <button type="submit" className="btn btn-primary w-full" disabled={submitting}>
        {submitting ? "Saving…" : welcome ? "Set My Password" : "Set New Password"}
      </button>
    </Form>
  );
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const welcome = actionData?.welcome ?? loaderData.welcome;
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <div className="panel">
        <h1 className="text-center text-3xl">{welcome ? SITE_MESSAGES.welcomeHeading : "Choose a New Password"}</h1>
        {actionData?.done ? (
          <Done welcome={actionData.welcome === true} />
        ) : actionData?.linkInvalid ? (
          <InvalidLink message={actionData.message ?? SITE_MESSAGES.resetLinkInvalid} />
        ) : (
          <Suspense
            fallback={
              <p role="status" className="mt-6 text-center text-dust">
                {MESSAGES.validatingToken}
              </p>
            }
          >
            <Await resolve={loaderData.state}>
              {(state) =>
                state === "valid" ? (
                  <NewPasswordForm token={loaderData.token} welcome={welcome} actionData={actionData} />
                ) : (
                  <InvalidLink message={LINK_REFUSALS[state]} />
                )
              }
            </Await>
          </Suspense>
        )}
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.welcome ? "Choose Your Password" : "Choose a New Password"} · Hopewell` },
];

/**
 * The site's error page, from this route's own boundary rather than the root's: after a failed
 * action (a body that is not a form, say) React Router skips the boundary route's loader, so
 * at the root the header would lose the signed-in member's navigation.
 */
export const ErrorBoundary = SiteErrorPage;
