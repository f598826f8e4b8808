import { redirect, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import type { Route } from "./+types/email-code";
import { SiteErrorPage } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { email as emailSchema } from "~/features/accounts/auth.form";
import { CodeStep, RequestStep, type EmailCodeStep } from "~/features/accounts/EmailCodeSteps";
import { PASSWORD_REMOVED } from "~/features/accounts/email-code.form";
import { keptRedirect, sendSignInCode, signInWithTypedCode } from "~/features/accounts/email-code-page.server";
import { readForm } from "~/web/forms/kernel";
import { requestInfoContext } from "~/web/request-context";
import { optionalUser } from "~/web/guards.server";

/**
 * Signing in with a one-time code sent by email, in two steps on one address: ask for a code
 * (email and CAPTCHA), then type it (`?email=`). The email's link opens the second step with
 * the code filled in (`&code=`); only pressing "Sign in" uses it, so a mail scanner following
 * the link signs nobody in. Plain form posts: it works without JavaScript (but the CAPTCHA).
 */

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
  if (fields.intent === "verify") return signInWithTypedCode(fields, request, clientAddress, redirectTo);
  return sendSignInCode(fields, clientAddress, redirectTo);
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
