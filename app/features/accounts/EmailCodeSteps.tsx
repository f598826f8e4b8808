// The two steps of signing in with a code sent by email (routes/auth/email-code.tsx), and the page's address.
import { useCallback, useState } from "react";
import { Form, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import { Captcha, CaptchaHint } from "~/components/Captcha";
import { Alert } from "~/components/ui/Alert";
import { EmailField, Field } from "~/components/ui/Field";
import { useHydrated } from "~/lib/use-hydrated";
import type { FieldErrors } from "~/web/forms/kernel";
import { EMAIL_CODE_MESSAGES } from "./email-code.form";

const PAGE = "/auth/email-code";

export type EmailCodeStep = "request" | "code";
/** What the page shows after a post: the step, and its messages and values. */
export type EmailCodeAnswer = {
  step: EmailCodeStep;
  message?: string;
  errors?: FieldErrors;
  email?: string;
  code?: string;
  /** "Send again" was answered: its message, a success or a wait. */
  resent?: { ok: boolean; message: string };
};

/** The page's address with the given query (empty values left out). */
export function emailCodePageUrl(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
  const text = query.toString();
  return text ? `${PAGE}?${text}` : PAGE;
}

/** A submit button that waits for the CAPTCHA once JavaScript runs (without it, the server says so). */
function useCaptchaGate() {
  const hydrated = useHydrated();
  const [solved, setSolved] = useState(false);
  const onChange = useCallback((value: boolean) => setSolved(value), []);
  return { onChange, solved, blocked: hydrated && !solved };
}

/** The first step: the email address to send a code to, and the CAPTCHA. */
export function RequestStep({
  actionData,
  redirectTo,
  busy,
}: {
  actionData?: EmailCodeAnswer;
  redirectTo?: string;
  busy: boolean;
}) {
  const gate = useCaptchaGate();
  return (
    <>
      <h1 className="text-center text-3xl">Sign in with a code</h1>
      <p className="mt-4 text-center text-dust">
        Enter your account&apos;s email address and we will send you a 6-digit code to sign in with: no password needed.
      </p>
      <Form method="post" noValidate className="mt-6 flex flex-col gap-4">
        {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
        <input type="hidden" name="intent" value="request" />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <EmailField defaultValue={actionData?.email} error={actionData?.errors?.email} />
        <Captcha onChange={gate.onChange} answer={actionData} />
        <button
          type="submit"
          className="btn btn-primary w-full disabled:cursor-not-allowed disabled:opacity-60"
          disabled={gate.blocked || busy}
        >
          {busy ? "Sending…" : "Email me a code"}
        </button>
        <CaptchaHint solved={gate.solved} />
      </Form>
    </>
  );
}

/** The second step: the code, and "Send again" (with the CAPTCHA) for a new one. */
export function CodeStep({
  email,
  code,
  sent,
  actionData,
  redirectTo,
  busy,
}: {
  email: string;
  code: string;
  sent: boolean;
  actionData?: EmailCodeAnswer;
  redirectTo?: string;
  busy: boolean;
}) {
  const gate = useCaptchaGate();
  const navigation = useNavigation();
  const intent = navigation.formData?.get("intent");
  return (
    <>
      <h1 className="text-center text-3xl">Enter your code</h1>
      <div className="mt-6 flex flex-col gap-3">
        {sent && !actionData ? <Alert kind="success">{EMAIL_CODE_MESSAGES.sent(email)}</Alert> : null}
        {!sent && code && !actionData ? (
          <p className="text-dust">Press &ldquo;Sign in&rdquo; to use the code from your email.</p>
        ) : null}
      </div>
      <Form method="post" noValidate className="mt-6 flex flex-col gap-4">
        <input type="hidden" name="intent" value="verify" />
        <input type="hidden" name="email" value={email} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <Field
          label="Code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 -]*"
          maxLength={12}
          required
          defaultValue={actionData?.code ?? code}
          error={actionData?.errors?.code}
          hint={`Sent to ${email}. A code works once, for a short time.`}
        />
        <button
          type="submit"
          className="btn btn-primary w-full disabled:cursor-not-allowed disabled:opacity-60"
          disabled={busy}
        >
          {busy && intent === "verify" ? "Signing in…" : "Sign in"}
        </button>
      </Form>

      <section aria-labelledby="resend-heading" className="mt-8 border-t border-timber pt-6">
        <h2 id="resend-heading" className="text-xl">
          No email?
        </h2>
        <p className="mt-2 text-sm text-dust">
          It can take a minute, and may land in your spam folder. You can ask for a new code: the old one then stops
          working.
        </p>
        <Form method="post" noValidate className="mt-4 flex flex-col gap-4">
          {actionData?.resent ? (
            <Alert kind={actionData.resent.ok ? "success" : "error"}>{actionData.resent.message}</Alert>
          ) : null}
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="email" value={email} />
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <Captcha onChange={gate.onChange} answer={actionData} />
          <button
            type="submit"
            className="btn btn-secondary w-full disabled:cursor-not-allowed disabled:opacity-60"
            disabled={gate.blocked || busy}
          >
            {busy && intent === "resend" ? "Sending…" : "Send again"}
          </button>
          <CaptchaHint solved={gate.solved}>Complete the CAPTCHA to send again.</CaptchaHint>
        </Form>
        <p className="mt-4 text-center">
          <Link to={emailCodePageUrl({ redirectTo })}>Use another email address</Link>
        </p>
      </section>
    </>
  );
}
