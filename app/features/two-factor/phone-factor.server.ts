import { and, eq } from "drizzle-orm";
import { TWO_FACTOR_MESSAGES } from "./two-factor.form";
import { authRefusal, getAuth } from "~/identity/auth.server";
import { database } from "~/platform/db/client.server";
import { profiles } from "~/platform/db/schema";
import { otpDelivery, type OtpDelivery } from "~/identity/otp-delivery.server";
import { hit, LIMITS, signInPerAccount } from "~/platform/rate-limit.server";
import { maskPhone, smsEnabled } from "~/platform/sms/sms.server";
import { type TwoFactorOutcome } from "./two-factor.server";
import { hasAuthenticatorApp, phoneFactorOf } from "~/identity/factors.server";

/**
 * A phone as a second factor: the auth library's two-factor codes,
 * texted to a number the member added and confirmed on /profile/two-factor. Adding one needs
 * the password; the first code texted to the number confirms it. For a member with no factor
 * yet, that code turns two-factor authentication on (the library does so when its code is
 * checked for a signed-in member who has none, and replaces the session with an aal2 one).
 * Exists only while SMS_WEBHOOK_URL is set.
 */

type Member = { id: string; email: string };

async function withinAccountLimit(email: string): Promise<boolean> {
  return (await hit(`signin:account:${email.toLowerCase()}`, signInPerAccount())).allowed;
}

/** The password, checked by the library; attempts count against the account's sign-in limit. */
async function passwordRefusal(
  request: Request,
  member: Member,
  password: string,
): Promise<Extract<TwoFactorOutcome, { ok: false }> | null> {
  if (!(await withinAccountLimit(member.email)))
    return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooManyAttempts };
  const auth = await getAuth();
  try {
    await auth.api.verifyPassword({ body: { password }, headers: request.headers });
    return null;
  } catch (error) {
    const refusal = await authRefusal(error);
    if (refusal?.code === "INVALID_PASSWORD" || refusal?.code === "CREDENTIAL_ACCOUNT_NOT_FOUND") {
      return { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.wrongPassword, field: "password" };
    }
    throw error;
  }
}

function unavailable(): Extract<TwoFactorOutcome, { ok: false }> {
  return { ok: false, status: 404, message: TWO_FACTOR_MESSAGES.noPhone };
}

/**
 * Step one: after the password, the number (E.164, checked by the form) is kept as waiting and
 * the library's code is texted to it. A member with a confirmed number removes it first.
 * Texts are limited per member and per client address.
 */
export async function startPhoneEnrolment(
  request: Request,
  clientAddress: string,
  member: Member,
  input: { phone: string; password: string },
): Promise<TwoFactorOutcome<{ masked: string }>> {
  if (!smsEnabled()) return unavailable();
  const wrong = await passwordRefusal(request, member, input.password);
  if (wrong) return wrong;
  const current = await phoneFactorOf(member.id);
  if (current.confirmed) return { ok: false, status: 409, message: TWO_FACTOR_MESSAGES.phoneAlready };
  const byAccount = await hit(`two-factor-sms:account:${member.id}`, LIMITS.resetPerAddress);
  const byAddress = await hit(`two-factor-sms:address:${clientAddress}`, LIMITS.resetPerAddress);
  if (!byAccount.allowed || !byAddress.allowed)
    return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooManyAttempts };

  const db = await database();
  await db.update(profiles).set({ twoFactorPhonePending: input.phone }).where(eq(profiles.id, member.id));
  const auth = await getAuth();
  const delivery: OtpDelivery = { channel: "sms", to: input.phone };
  // A newer code replaces any earlier one of this session: only the code sent to this number works.
  await otpDelivery.run(delivery, () => auth.api.sendTwoFactorOTP({ body: {}, headers: request.headers }));
  if (delivery.outcome !== "queued") return { ok: false, status: 500, message: TWO_FACTOR_MESSAGES.failed };
  return { ok: true, masked: maskPhone(input.phone) };
}

/**
 * Step two: the code texted to the waiting number. The library checks it (five tries, ten
 * minutes); then the number is confirmed. The cookies are the library's new session when this
 * turned two-factor authentication on.
 */
export async function confirmPhoneEnrolment(
  request: Request,
  member: Member,
  code: string,
): Promise<TwoFactorOutcome<{ setCookies: string[] }>> {
  if (!smsEnabled()) return unavailable();
  if (!(await withinAccountLimit(member.email)))
    return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooManyAttempts };
  const { confirmed, pending } = await phoneFactorOf(member.id);
  if (confirmed) return { ok: false, status: 409, message: TWO_FACTOR_MESSAGES.phoneAlready };
  if (!pending) return { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.phoneNotStarted };
  const auth = await getAuth();
  let setCookies: string[];
  try {
    const { headers } = await auth.api.verifyTwoFactorOTP({
      body: { code },
      headers: request.headers,
      returnHeaders: true,
    });
    setCookies = headers.getSetCookie();
  } catch (error) {
    const refusal = await authRefusal(error);
    switch (refusal?.code) {
      case "INVALID_CODE":
        return { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.wrongSmsCode, field: "code" };
      case "OTP_HAS_EXPIRED":
        return { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.smsCodeExpired };
      case "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE":
        return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooManySmsTries };
      default:
        throw error;
    }
  }
  const db = await database();
  // Only the number the code was texted to, if no other was asked for since.
  await db
    .update(profiles)
    .set({ twoFactorPhone: pending, twoFactorPhonePending: null })
    .where(and(eq(profiles.id, member.id), eq(profiles.twoFactorPhonePending, pending)));
  return { ok: true, setCookies };
}

/**
 * Removes the member's phone after the password. With an authenticator app the factor stays
 * on; without one the phone was the only factor, so two-factor authentication goes off with it
 * (through the library, which replaces the session: the cookies to pass on).
 */
export async function removePhoneFactor(
  request: Request,
  member: Member,
  password: string,
): Promise<TwoFactorOutcome<{ setCookies: string[]; turnedOff: boolean }>> {
  const wrong = await passwordRefusal(request, member, password);
  if (wrong) return wrong;
  const db = await database();
  const phone = await phoneFactorOf(member.id);
  if (!phone.confirmed && !phone.pending) return { ok: false, status: 409, message: TWO_FACTOR_MESSAGES.noPhone };
  let setCookies: string[] = [];
  let turnedOff = false;
  if (phone.confirmed && !(await hasAuthenticatorApp(member.id))) {
    const auth = await getAuth();
    const { headers } = await auth.api.disableTwoFactor({
      body: { password },
      headers: request.headers,
      returnHeaders: true,
    });
    setCookies = headers.getSetCookie();
    turnedOff = true;
  }
  await db
    .update(profiles)
    .set({ twoFactorPhone: null, twoFactorPhonePending: null })
    .where(eq(profiles.id, member.id));
  return { ok: true, setCookies, turnedOff };
}
