import { data, redirect, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import type { Route } from "./+types/email-code";
import { SiteErrorPage } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { email as emailSchema } from "~/features/accounts/auth.form";
import { EMAIL_CODE_MESSAGES, EmailCodeForm, EmailCodeRequestForm } from "~/features/accounts/email-code.form";
import {
  CodeStep,
  emailCodePageUrl,
  RequestStep,
  type EmailCodeAnswer,
  type EmailCodeStep,
} from "~/features/accounts/EmailCodeSteps";
import { fieldErrors, readForm } from "~/web/forms/kernel";
import { MESSAGES } from "~/web/forms/messages";
import { requestInfoContext } from "~/web/request-context";
import { safeRedirectTarget } from "~/web/redirect-target";
import { verifyCaptcha } from "~/platform/captcha.server";
import { requestSignInCode, signInWithCode } from "~/features/accounts/email-code.server";
import { optionalUser } from "~/web/guards.server";

/**
 * Signing in with a one-time code sent by email, in two steps on one address: ask for a code
 * (email and CAPTCHA), then type it (`?email=`). The email's link opens the second step with
 * the code filled in (`&code=`); only pressing "Sign in" uses it, so a mail scanner following
 * the link signs nobody in. Plain form posts: it works without JavaScript (but the CAPTCHA).
 */

const PASSWORD_REMOVED = "password-removed";

/** The `redirectTo` worth keeping: a same-site path, else nothing. */
function keptRedirect(value: string | null | undefined): string | undefined {
  const target = safeRedirectTarget(value, "");
  return target || undefined;
}

export function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = keptRedirect(url.searchParams.get("redirectTo"));
  const user = optionalUser(context);
  if (user) {
    // Just signed in with a code that also removed the account's old password: say so once.
    if (url.searchParams.get("notice") === PASSWORD_REMOVED)
      return { notice: PASSWORD_REMOVED, redirectTo: redirectTo ?? "/" } as const;
    throw redirect(redirectTo ?? "/");
  }
  const email = emailSchema.safeParse(url.searchParams.get("email") ?? "");
  const code = (url.searchParams.get("code") ?? "").slice(0, 20);
  return {
    notice: null,
    redirectTo,
    email: email.success ? email.data : undefined,
    code,
    sent: url.searchParams.get("sent") === "1",
  } as const;
}

export async function action({ request, context }: Route.ActionArgs) {
  const fields = await readForm(request);
  const { clientAddress } = context.get(requestInfoContext);
  const redirectTo = keptRedirect(fields.redirectTo);

  if (fields.intent === "verify") {
    const parsed = EmailCodeForm.safeParse(fields);
    if (!parsed.success) {
      // Without a usable address there is no code step to return to.
      const errors = fieldErrors(parsed.error);
      if (errors.email)
        return data<EmailCodeAnswer>(
          { step: "request", errors: { email: errors.email }, email: fields.email },
          { status: 400 },
        );
      return data<EmailCodeAnswer>({ step: "code", errors, email: fields.email, code: fields.code }, { status: 400 });
    }
    const outcome = await signInWithCode(parsed.data, request, clientAddress);
    if (!outcome.ok)
      return data<EmailCodeAnswer>(
        { step: "code", errors: { code: outcome.message }, email: parsed.data.email, code: fields.code },
        { status: outcome.status },
      );
    const headers = new Headers();
    for (const cookie of outcome.setCookies) headers.append("Set-Cookie", cookie);
    if (outcome.passwordRemoved)
      throw redirect(emailCodePageUrl({ notice: PASSWORD_REMOVED, redirectTo }), { headers });
    throw redirect(safeRedirectTarget(redirectTo), { headers });
  }

  const step: EmailCodeStep = fields.intent === "resend" ? "code" : "request";
  const parsed = EmailCodeRequestForm.safeParse(fields);
  if (!parsed.success)
    return data<EmailCodeAnswer>(
      { step: "request", errors: fieldErrors(parsed.error), email: fields.email },
      { status: 400 },
    );
  const fail = (status: number, message: string) =>
    data<EmailCodeAnswer>(
      step === "code"
        ? { step, email: parsed.data.email, resent: { ok: false, message } }
        : { step, message, email: fields.email },
      { status },
    );
  if (!(await verifyCaptcha(fields, clientAddress))) return fail(400, MESSAGES.captcha);
  const outcome = await requestSignInCode(parsed.data.email, clientAddress, redirectTo);
  if (!outcome.ok) return fail(outcome.status, outcome.message);
  // The first request moves on to the code step; "Send again" stays on it.
  if (step === "request") throw redirect(emailCodePageUrl({ email: parsed.data.email, sent: "1", redirectTo }));
  return data<EmailCodeAnswer>({
    step,
    email: parsed.data.email,
    resent: { ok: true, message: EMAIL_CODE_MESSAGES.sent(parsed.data.email) },
  });
}

export default function EmailCode({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const redirectTo = loaderData.redirectTo;

  if (loaderData.notice === PASSWORD_REMOVED) {
    return (
      <div className="mx-auto max-w-md px-4 py-12">
        <div className="panel flex flex-col gap-4">
          <h1 className="text-center text-3xl">You are signed in</h1>
          <Alert kind="success">Your email address is now confirmed.</Alert>
          <p>
            This was the first time your address was proven, so for your safety the password your account had was
            removed and its other devices were signed out: if someone else had set up an account with your address, they
            can no longer get in.
          </p>
          <p>
            Keep signing in with a code, or choose a new password with{" "}
            <Link to="/forgot-password">Forgot Password?</Link>
          </p>
          <Link to={loaderData.redirectTo} className="btn btn-primary text-center">
            Continue
          </Link>
        </div>
      </div>
    );
  }

  // The address the code step is for: the page's (`?email=`), or the one just posted.
  const email = loaderData.email ?? (actionData?.step === "code" ? actionData.email : undefined);
  const step: EmailCodeStep = actionData?.step ?? (email ? "code" : "request");
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <div className="panel">
        {step === "code" && email ? (
          <CodeStep
            email={email}
            code={loaderData.code}
            sent={loaderData.sent}
            actionData={actionData}
            redirectTo={redirectTo}
            busy={busy}
          />
        ) : (
          <RequestStep actionData={actionData} redirectTo={redirectTo} busy={busy} />
        )}
        <p className="mt-6 text-center">
          <Link to={`/auth${redirectTo ? `?${new URLSearchParams({ redirectTo })}` : ""}`}>
            Sign in with your password instead
          </Link>
        </p>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Sign In with a Code · Hopewell" }];

/** The site's error page from this route's own boundary, as on /auth. */
export const ErrorBoundary = SiteErrorPage;
