import { useCallback, useState } from "react";
import { data, Form, useNavigate, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import { SiteErrorPage } from "~/components/PageErrorBoundary";
import type { Route } from "./+types/forgot-password";
import { Captcha, CaptchaHint } from "~/components/Captcha";
import { Alert } from "~/components/ui/Alert";
import { EmailField } from "~/components/ui/Field";
import { ForgotPasswordForm } from "~/features/accounts/auth.form";
import { type FieldErrors, fieldErrors, readForm } from "~/web/forms/kernel";
import { MESSAGES } from "~/web/forms/messages";
import { requestInfoContext } from "~/web/request-context";
import { useHydrated } from "~/lib/use-hydrated";
import { requestPasswordReset } from "~/features/accounts/password-changes.server";
import { verifyCaptcha } from "~/platform/captcha.server";

type ActionData = { sent?: boolean; message?: string; errors?: FieldErrors; email?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const fields = await readForm(request);
  const parsed = ForgotPasswordForm.safeParse(fields);
  if (!parsed.success)
    return data<ActionData>({ errors: fieldErrors(parsed.error), email: fields.email }, { status: 400 });
  if (!(await verifyCaptcha(fields, context.get(requestInfoContext).clientAddress)))
    return data<ActionData>({ message: MESSAGES.captcha, email: fields.email }, { status: 400 });
  const outcome = await requestPasswordReset(parsed.data.email, context.get(requestInfoContext).clientAddress);
  if (!outcome.ok)
    return data<ActionData>({ message: outcome.message, email: fields.email }, { status: outcome.status });
  return data<ActionData>({ sent: true });
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [captchaSolved, setCaptchaSolved] = useState(false);
  const onCaptcha = useCallback((solved: boolean) => setCaptchaSolved(solved), []);
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";

  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <div className="panel">
        <h1 className="text-center text-3xl">Reset Password</h1>
        <p className="mt-4 text-center text-dust">
          Enter the email you signed up with and we will send you a link to choose a new password.
        </p>
        {actionData?.sent ? (
          <div className="mt-6">
            <Alert kind="success">{MESSAGES.resetEmailSent}</Alert>
          </div>
        ) : (
          <Form method="post" noValidate className="mt-6 flex flex-col gap-4">
            {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
            <EmailField defaultValue={actionData?.email} error={actionData?.errors?.email} />
            <Captcha onChange={onCaptcha} answer={actionData} />
            <button
              type="submit"
              className="btn btn-primary w-full disabled:cursor-not-allowed disabled:opacity-60"
              disabled={(hydrated && !captchaSolved) || submitting}
            >
              {submitting ? "Sending…" : "Send Reset Link"}
            </button>
            <CaptchaHint solved={captchaSolved} />
          </Form>
        )}
        <div className="mt-6 flex items-center justify-between gap-4">
          {hydrated ? (
            <button type="button" onClick={() => navigate(-1)} className="btn btn-secondary">
              Back
            </button>
          ) : (
            <Link to="/auth" className="btn btn-secondary">
              Back
            </Link>
          )}
          <p>
            Remembered it? <Link to="/login">Login here</Link>
          </p>
        </div>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Reset Password · Hopewell" }];

/**
 * The site's error page, from this route's own boundary rather than the root's: after a failed
 * action (a body that is not a form, say) React Router skips the boundary route's loader, so
 * at the root the header would lose the signed-in member's navigation.
 */
export const ErrorBoundary = SiteErrorPage;
