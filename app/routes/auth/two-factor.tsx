import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import { SiteErrorPage } from "~/components/PageErrorBoundary";
import type { Route } from "./+types/two-factor";
import { Alert } from "~/components/ui/Alert";
import { Field } from "~/components/ui/Field";
import { PasskeySignIn } from "~/features/passkeys/PasskeySignIn";
import { type FieldErrors, fieldErrors, readForm } from "~/web/forms/kernel";
import { PASSKEY_MESSAGES } from "~/features/passkeys/passkey-messages";
import { SecondFactorCodeForm, TWO_FACTOR_MESSAGES } from "~/features/two-factor/two-factor.form";
import { requestInfoContext } from "~/web/request-context";
import { safeRedirectTarget } from "~/web/redirect-target";
import { optionalUser } from "~/web/guards.server";
import { smsEnabled } from "~/platform/sms/sms.server";
import { textSecondFactorCode, verifySecondFactor } from "~/features/two-factor/two-factor.server";
import {
  hasAnyFactor,
  preferredSecondFactor,
  secondFactorWaysOf,
  type SecondFactorKind,
  type SecondFactorWays,
} from "~/identity/factors.server";

/**
 * The second step of signing in, for a member with a second factor: the password was right
 * (the library holds the sign-in in a challenge cookie for 10 minutes), now a code from the
 * authenticator app, a backup code, a code (with SMS_WEBHOOK_URL) texted to the member's
 * confirmed phone, or a passkey. A signed-in member whose session was proven by one factor (a
 * password, an emailed code, Discord) comes here too when a page needs more (a manager opening
 * the tools): the same codes raise that session, and a passkey replaces it with one it proves.
 * An emailed code is never offered: the mailbox is the factor an emailed sign-in code, a reset
 * link and an invitation already prove (docs/decisions/0017-a-second-factor-is-a-second-factor.md).
 */

type Mode = "sign-in" | "step-up";
type ActionData = {
  method: SecondFactorKind;
  redirectTo?: string;
  message?: string;
  restart?: boolean;
  sent?: string;
  errors?: FieldErrors;
};

function methodOf(value: unknown): SecondFactorKind {
  if (value === "sms") return smsEnabled() ? "sms" : "totp";
  return value === "backup" ? value : "totp";
}

/** The member is not known before the second step of a sign-in: every way the site has is offered. */
function signInWays(): SecondFactorWays {
  return { app: true, phone: smsEnabled(), passkey: true };
}

/** Whether `method` is one of the member's ways: backup codes come with the app. */
function offers(ways: SecondFactorWays, method: SecondFactorKind): boolean {
  return method === "sms" ? ways.phone : ways.app;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectTarget(url.searchParams.get("redirectTo"), "");
  const user = optionalUser(context);
  let mode: Mode = "sign-in";
  let method = methodOf(url.searchParams.get("method"));
  let ways = signInWays();
  if (user) {
    if (user.assuranceLevel === "aal2") throw redirect(redirectTo || "/");
    if (!(await hasAnyFactor(user.id))) throw redirect("/profile/two-factor");
    mode = "step-up";
    ways = await secondFactorWaysOf(user.id);
    // Without a choice yet (or one they do not have), the member's own first way: the app, else their phone.
    if (!url.searchParams.has("method") || !offers(ways, method)) method = await preferredSecondFactor(user.id);
  }
  return { mode, redirectTo, method, ways };
}

export async function action({ request, context }: Route.ActionArgs) {
  const fields = await readForm(request);
  const method = methodOf(fields.method);
  const { clientAddress } = context.get(requestInfoContext);
  const user = optionalUser(context);
  const redirectTo = safeRedirectTarget(fields.redirectTo, "");
  if (user?.assuranceLevel === "aal2") throw redirect(redirectTo || "/");
  const stepUp = user ? { userId: user.id, email: user.email } : null;
  const withCookies = (setCookies: string[]) => {
    const headers = new Headers();
    for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
    return headers;
  };

  if (fields.intent === "send-sms") {
    const outcome = await textSecondFactorCode(request, clientAddress, stepUp);
    if (!outcome.ok)
      return data<ActionData>(
        { method: "sms", redirectTo, message: outcome.message, restart: outcome.restart },
        { status: outcome.status },
      );
    return data<ActionData>(
      { method: "sms", sent: TWO_FACTOR_MESSAGES.smsSent },
      { headers: withCookies(outcome.setCookies) },
    );
  }

  // The passkey button posts here only when the page's JavaScript did not run (features/passkeys/PasskeySignIn.tsx).
  if (fields.intent === "passkey")
    return data<ActionData>({ method, redirectTo, message: PASSKEY_MESSAGES.signInNeedsJavaScript }, { status: 400 });

  const parsed = SecondFactorCodeForm.safeParse({ ...fields, method });
  if (!parsed.success) return data<ActionData>({ method, errors: fieldErrors(parsed.error) }, { status: 400 });
  const outcome = await verifySecondFactor(request, clientAddress, parsed.data.method, parsed.data.code, stepUp);
  if (!outcome.ok) {
    const body: ActionData =
      outcome.field === "code"
        ? { method, errors: { code: outcome.message } }
        : { method, redirectTo, message: outcome.message, restart: outcome.restart };
    return data<ActionData>(body, { status: outcome.status });
  }
  throw redirect(redirectTo || "/", { headers: withCookies(outcome.setCookies) });
}

const INTROS: Record<SecondFactorKind, string> = {
  totp: "Enter the 6-digit code your authenticator app shows for Hopewell.",
  backup: "Enter one of the backup codes you saved when you set up two-factor authentication. Each works once.",
  sms: "We can text a 6-digit code to the phone you added. It works once, within 10 minutes.",
};

export default function AuthTwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const { mode } = loaderData;
  // The form's own target wins: a post answered from a bare address still knows where it was going.
  const redirectTo = actionData?.redirectTo || loaderData.redirectTo;
  const method = actionData?.method ?? loaderData.method;
  const errors = actionData?.errors ?? {};
  const restartLink = `/auth${redirectTo ? `?${new URLSearchParams({ redirectTo })}` : ""}`;
  const methodLink = (target: SecondFactorKind) =>
    `/auth/two-factor?${new URLSearchParams({ ...(target === "totp" ? {} : { method: target }), ...(redirectTo ? { redirectTo } : {}) })}`;
  const codeLabel = method === "backup" ? "Backup code" : method === "sms" ? "Texted code" : "Authenticator code";
  const { ways } = loaderData;
  // A member whose only factor is a phone, while the site cannot text, has no code to give here.
  const codeOffered = offers(ways, method);

  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <div className="panel flex flex-col gap-6">
        <h1 className="text-center text-3xl">{mode === "step-up" ? "Confirm It's You" : "Two-Step Sign In"}</h1>
        {mode === "step-up" ? (
          <p>{TWO_FACTOR_MESSAGES.stepUpRequired}</p>
        ) : (
          <p>Your password was right. One more step: this account has two-factor authentication.</p>
        )}
        {codeOffered ? (
          <p className="text-dust">{INTROS[method]}</p>
        ) : ways.passkey ? null : (
          <Alert kind="warning">{TWO_FACTOR_MESSAGES.noTexts}</Alert>
        )}

        {actionData?.sent ? <Alert kind="success">{actionData.sent}</Alert> : null}
        {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}

        {actionData?.restart && mode === "sign-in" ? (
          <Link to={restartLink} className="btn btn-primary w-full text-center no-underline">
            Sign in again
          </Link>
        ) : codeOffered ? (
          <>
            {method === "sms" ? (
              <Form method="post">
                <input type="hidden" name="intent" value="send-sms" />
                {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
                <button type="submit" className="btn btn-secondary w-full" disabled={busy}>
                  {actionData?.sent ? "Send another code" : "Text me a code"}
                </button>
              </Form>
            ) : null}
            <Form method="post" noValidate className="flex flex-col gap-4" key={method}>
              <input type="hidden" name="intent" value="verify" />
              <input type="hidden" name="method" value={method} />
              {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
              <Field
                label={codeLabel}
                name="code"
                required
                autoComplete={method === "backup" ? "off" : "one-time-code"}
                inputMode={method === "backup" ? "text" : "numeric"}
                spellCheck={false}
                autoCapitalize="off"
                maxLength={method === "backup" ? 16 : 10}
                error={errors.code ?? errors.form}
                hint={method === "backup" ? "Like abcde-12345; the dash may be left out." : undefined}
              />
              <button type="submit" className="btn btn-primary w-full" disabled={busy}>
                {busy ? "Checking…" : "Verify"}
              </button>
            </Form>
          </>
        ) : null}

        {ways.passkey ? (
          <div className="flex flex-col gap-2">
            <p className="text-dust">
              {codeOffered ? TWO_FACTOR_MESSAGES.passkeyInstead : TWO_FACTOR_MESSAGES.passkeyOnly}
            </p>
            <PasskeySignIn redirectTo={redirectTo} />
            {mode === "step-up" && !ways.app && !ways.phone ? (
              <p className="text-sm text-dust">{TWO_FACTOR_MESSAGES.passkeyLost}</p>
            ) : null}
          </div>
        ) : null}

        <nav aria-label="Other ways to give the second factor">
          <ul className="flex flex-col gap-2 text-center">
            {ways.app && method !== "totp" ? (
              <li>
                <Link to={methodLink("totp")}>Use my authenticator app</Link>
              </li>
            ) : null}
            {ways.app && method !== "backup" ? (
              <li>
                <Link to={methodLink("backup")}>Use a backup code</Link>
              </li>
            ) : null}
            {ways.phone && method !== "sms" ? (
              <li>
                <Link to={methodLink("sms")}>Text me a code instead</Link>
              </li>
            ) : null}
            {mode === "sign-in" ? (
              <li>
                <Link to={restartLink}>Start again</Link>
              </li>
            ) : null}
          </ul>
        </nav>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Two-Step Sign In · Hopewell" }];

export const ErrorBoundary = SiteErrorPage;
