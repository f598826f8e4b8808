import { data, redirect } from "react-router";
import { EMAIL_CODE_MESSAGES, EmailCodeForm, EmailCodeRequestForm, PASSWORD_REMOVED } from "./email-code.form";
import { requestSignInCode, signInWithCode } from "./email-code.server";
import { emailCodePageUrl, type EmailCodeAnswer, type EmailCodeStep } from "./EmailCodeSteps";
import { verifyCaptcha } from "~/platform/captcha.server";
import { fieldErrors, type FormValues } from "~/web/forms/kernel";
import { MESSAGES } from "~/web/forms/messages";
import { safeRedirectTarget } from "~/web/redirect-target";

/** The email-code page's two answers (routes/auth/email-code.tsx): send a code, and sign in with one. */

/** The `redirectTo` worth keeping: a same-site path, else nothing. */
export function keptRedirect(value: string | null | undefined): string | undefined {
  const target = safeRedirectTarget(value, "");
  return target || undefined;
}

/** "Sign in": checks the typed code and signs in, or says what was wrong on the step it belongs to. */
export async function signInWithTypedCode(
  fields: FormValues,
  request: Request,
  clientAddress: string,
  redirectTo: string | undefined,
) {
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
  if (outcome.passwordRemoved) throw redirect(emailCodePageUrl({ notice: PASSWORD_REMOVED, redirectTo }), { headers });
  throw redirect(safeRedirectTarget(redirectTo), { headers });
}

/**
 * "Email me a code" (the first step, which then moves on to the code step) and "Send again" (on
 * the code step, which stays there): checks the address and the CAPTCHA, then sends a code.
 */
export async function sendSignInCode(fields: FormValues, clientAddress: string, redirectTo: string | undefined) {
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
  if (step === "request") throw redirect(emailCodePageUrl({ email: parsed.data.email, sent: "1", redirectTo }));
  return data<EmailCodeAnswer>({
    step,
    email: parsed.data.email,
    resent: { ok: true, message: EMAIL_CODE_MESSAGES.sent(parsed.data.email) },
  });
}
