import { data, redirect, useRouteLoaderData, useSearchParams } from "react-router";
import { SiteErrorPage } from "~/components/PageErrorBoundary";
import type { Route } from "./+types/auth";
import { CaptchaBox, CaptchaHint } from "~/components/Captcha";
import { FormErrorTemplates } from "~/components/ui/FormErrorTemplates";
import { NewPasswordFields } from "~/features/accounts/NewPasswordFields";
import { PasskeySignIn } from "~/features/passkeys/PasskeySignIn";
import { DiscordSignInButton, DiscordSignInNotice } from "~/features/discord/DiscordSignIn";
import { PasswordField } from "~/features/accounts/PasswordField";
import { Alert } from "~/components/ui/Alert";
import { EmailField, Field } from "~/components/ui/Field";
import { newPasswordMessage, SignInForm, SignUpForm } from "~/features/accounts/auth.form";
import { type FieldErrors, fieldErrors, readForm } from "~/web/forms/kernel";
import { MESSAGES } from "~/web/forms/messages";
import { PASSKEY_MESSAGES } from "~/features/passkeys/passkey-messages";
import { requestInfoContext } from "~/web/request-context";
import { safeRedirectTarget } from "~/web/redirect-target";
import { loadAsDocument, type PageScriptHandle } from "~/web/page-script";
import type { loader as rootLoader } from "~/root";
import authPageScript from "./auth.page?worker&url";
import { signIn, signUp } from "~/features/accounts/accounts.server";
import { signedUpHereCookie } from "~/features/accounts/sign-up-browser.server";
import { verifyCaptcha } from "~/platform/captcha.server";
import { optionalUser } from "~/web/guards.server";
import { secondStepUrl } from "~/features/two-factor/two-factor.server";

type Mode = "signin" | "signup";
type ActionData = { mode: Mode; message?: string; errors?: FieldErrors; values?: Record<string, string> };

export async function loader({ context }: Route.LoaderArgs) {
  // Already signed in: nothing to do here.
  if (optionalUser(context)) throw redirect("/");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const fields = await readForm(request);
  // The passkey button posts here only when the page's JavaScript did not run (features/passkeys/PasskeySignIn.tsx).
  if (fields.intent === "passkey")
    return data<ActionData>({ mode: "signin", message: PASSKEY_MESSAGES.signInNeedsJavaScript }, { status: 400 });
  const mode: Mode = fields.intent === "signup" ? "signup" : "signin";
  const { clientAddress } = context.get(requestInfoContext);
  // Keep what was typed (never the passwords) so a refused form comes back filled in.
  const values = { firstName: fields.firstName ?? "", lastName: fields.lastName ?? "", email: fields.email ?? "" };
  const fail = (status: number, body: Omit<ActionData, "mode" | "values">) =>
    data<ActionData>({ mode, values, ...body }, { status });

  if (mode === "signup") {
    const parsed = SignUpForm.safeParse(fields);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      return fail(400, { errors, message: newPasswordMessage(errors) });
    }
    if (!(await verifyCaptcha(fields, context.get(requestInfoContext).clientAddress)))
      return fail(400, { message: MESSAGES.captcha });
    const outcome = await signUp(parsed.data, clientAddress);
    if (!outcome.ok) return fail(outcome.status, { message: outcome.message });
    throw redirect("/auth?created=1", { headers: { "Set-Cookie": await signedUpHereCookie(outcome.userId) } });
  }

  const parsed = SignInForm.safeParse(fields);
  if (!parsed.success) return fail(400, { errors: fieldErrors(parsed.error) });
  if (!(await verifyCaptcha(fields, context.get(requestInfoContext).clientAddress)))
    return fail(400, { message: MESSAGES.captcha });
  const outcome = await signIn(parsed.data, request, clientAddress);
  if (!outcome.ok) return fail(outcome.status, { message: outcome.message });
  const headers = new Headers();
  for (const cookie of outcome.setCookies) headers.append("Set-Cookie", cookie);
  // A member with a second factor finishes signing in on its own page, keeping the target.
  if (outcome.secondStep) throw redirect(secondStepUrl(fields.redirectTo, outcome.secondStepMethod), { headers });
  throw redirect(safeRedirectTarget(fields.redirectTo), { headers });
}

export const handle: PageScriptHandle = { pageScript: authPageScript };

export const clientLoader = loadAsDocument;

export default function Auth({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const captcha = useRouteLoaderData<typeof rootLoader>("root")?.captcha ?? { provider: "altcha" as const };
  const mode: Mode = actionData?.mode ?? (searchParams.get("mode") === "signup" ? "signup" : "signin");
  const created = searchParams.get("created") === "1" && !actionData;
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const errors = actionData?.errors ?? {};
  const values = actionData?.values ?? {};

  const modeLink = (target: Mode, label: string) => (
    <a
      href={`/auth?${new URLSearchParams({ ...(target === "signup" ? { mode: "signup" } : {}), ...(redirectTo ? { redirectTo } : {}) })}`}
      aria-current={mode === target ? "page" : undefined}
      className={`flex-1 rounded px-2 py-2 text-center font-display text-sm no-underline hover:no-underline sm:text-base ${
        mode === target ? "bg-rust-dark text-parchment" : "text-dust hover:text-brass"
      }`}
    >
      {label}
    </a>
  );

  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <div className="panel">
        <h1 className="text-center text-3xl">{mode === "signup" ? "Create Account" : "Sign In"}</h1>
        <nav aria-label="Sign in or create an account" className="mt-6 flex gap-1 rounded-md border border-timber p-1">
          {modeLink("signin", "Sign In")}
          {modeLink("signup", "Create Account")}
        </nav>

        {/* The page's script puts the mistakes it finds before sending here too (auth.page.ts). */}
        <div data-form-messages="" className="mt-6 flex flex-col gap-3 empty:hidden">
          {created ? <Alert kind="success">{MESSAGES.accountCreated}</Alert> : null}
          {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
        </div>
        {mode === "signin" ? <DiscordSignInNotice replaced={Boolean(actionData)} /> : null}

        <form method="post" noValidate data-auth-form={mode} className="mt-6 flex flex-col gap-4">
          <input type="hidden" name="intent" value={mode} />
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          {mode === "signup" ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="First name"
                name="firstName"
                autoComplete="given-name"
                required
                defaultValue={values.firstName}
                error={errors.firstName}
              />
              <Field
                label="Last name"
                name="lastName"
                autoComplete="family-name"
                required
                defaultValue={values.lastName}
                error={errors.lastName}
              />
            </div>
          ) : null}
          <EmailField defaultValue={values.email} error={errors.email} />
          {mode === "signup" ? (
            <NewPasswordFields errors={errors} />
          ) : (
            <PasswordField
              label="Password"
              name="password"
              autoComplete="current-password"
              required
              error={errors.password}
            />
          )}

          <CaptchaBox settings={captcha} />

          {mode === "signup" ? (
            <p className="text-sm text-dust">
              By creating an account you agree to play by the <a href="/rulebook">rulebook</a> and the club&apos;s code
              of conduct, and to the club keeping the details you give us to run the game. We never share them.
            </p>
          ) : null}

          <button type="submit" className="btn btn-primary w-full disabled:cursor-not-allowed disabled:opacity-60">
            {mode === "signup" ? "Create Account" : "Sign In"}
          </button>
          <CaptchaHint solved={false} />
        </form>

        {mode === "signin" ? (
          <>
            <p className="mt-6 flex flex-wrap justify-center gap-x-6 gap-y-2 text-center">
              <a href="/forgot-password">Forgot Password?</a>
              <a href={`/auth/email-code${redirectTo ? `?${new URLSearchParams({ redirectTo })}` : ""}`}>
                Email me a sign-in code
              </a>
            </p>
            <div className="mt-6 border-t border-ash pt-6">
              <PasskeySignIn redirectTo={redirectTo} />
            </div>
            <DiscordSignInButton redirectTo={redirectTo} />
          </>
        ) : null}
      </div>
      <FormErrorTemplates />
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Sign In or Create an Account · Hopewell" }];

/**
 * The site's error page, from this route's own boundary rather than the root's: after a failed
 * action (a body that is not a form, say) React Router skips the boundary route's loader, so
 * at the root the header would lose the signed-in member's navigation.
 */
export const ErrorBoundary = SiteErrorPage;
