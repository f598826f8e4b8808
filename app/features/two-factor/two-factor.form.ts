import { isValidPhoneNumber, parsePhoneNumberWithError } from "libphonenumber-js";
import { z } from "zod";
import { MESSAGES, SITE_MESSAGES } from "~/web/forms/messages";

/** What members are told about second factors. One source for pages and tests. */
export const TWO_FACTOR_MESSAGES = {
  codeRequired: "Please enter the code",
  codeFormat: "Please enter the 6-digit code",
  backupCodeFormat: "Please enter a backup code: 10 letters and digits, like abcde-12345",
  wrongCode: "That code is not right. Enter the newest code your app shows (check that your phone's clock is right).",
  codeUsed: "That code has just been used. Wait for your app to show the next one and enter that.",
  codeUsedSignIn:
    "That code has just been used, so it cannot sign in again. Please sign in again and enter the next code your app shows.",
  wrongBackupCode: "That backup code is not right, or it has already been used. Each backup code works only once.",
  stepExpired: "Your sign-in took too long (more than 10 minutes) or was already finished. Please sign in again.",
  tooManyTries: "Too many wrong codes for this sign-in. Please sign in again.",
  locked: "Too many wrong codes in a row: second-factor sign-in is locked for 15 minutes. Please try again later.",
  tooManyAttempts: "Too many attempts. Please wait a few minutes and try again.",
  noFactor: "This account has no second factor. Please sign in again.",
  enrolled: "Two-factor authentication is on. Keep these backup codes somewhere safe: they are shown only this once.",
  regenerated:
    "New backup codes made: the old ones no longer work. Keep these somewhere safe: they are shown only this once.",
  removed: "Two-factor authentication is off: signing in needs only your password.",
  alreadyOn: "Two-factor authentication is already on.",
  wrongPassword: "Your password is not correct",
  failed: "That did not work. Please try again.",
  managerRequired:
    "Managers must sign in with a second factor to use the staff tools, because they can read every member's details. Set up an authenticator app below to continue.",
  castRequired:
    "Cast must sign in with a second factor to use the staff tools. Set up an authenticator app below to continue.",
  stepUpRequired: "The staff tools need a second factor. Enter a code to continue.",
  refused: SITE_MESSAGES.secondFactorRequired,
  smsSent: "We have texted you a code. It works once, within 10 minutes.",
  wrongSmsCode: "That code is not right. Check the newest text message we sent you.",
  smsCodeExpired: "That texted code has expired or was already used. Send yourself a new one.",
  tooManySmsTries: "Too many wrong codes. Text yourself a new one.",
  noPhone: "This account has no phone number for text messages. Choose another way below.",
  noApp: "This account has no authenticator app. Choose another way below.",
  noTexts:
    "Codes cannot be texted from the site at the moment. Use your authenticator app, a backup code or a passkey; if you have none of these, ask a manager to switch off your second factor.",
  passkeyInstead: "Or use a passkey this device or your phone holds for Hopewell:",
  passkeyOnly: "Use a passkey this device or your phone holds for Hopewell:",
  passkeyLost:
    "Lost the device that holds your passkey? Ask a manager to remove the passkey from your account; then sign in again.",
  phoneRequired: "Please enter your mobile phone number",
  phoneInvalid: "Please enter a mobile number that can receive text messages, e.g. (860) 555-0142 or +44 7911 123456",
  phoneAlready: "This account already has a phone number. Remove it first to use another.",
  phoneNotStarted: "Enter your phone number first: we text the code to it.",
  phoneAdded: "Your phone is confirmed: signing in can now ask for a code texted to it.",
  phoneRemoved: "Your phone number is removed: no more codes are texted to it.",
  phoneRemovedAndOff:
    "Your phone number is removed, and two-factor authentication with it: signing in needs only your password.",
} as const;

/** Where a code was texted, as the page says it: the last two digits only. */
export function phoneCodeSentMessage(masked: string): string {
  return `We have texted a 6-digit code to ${masked}. Enter it below within 10 minutes.`;
}

/** The six digits of an authenticator app or a texted code; spaces typed between them are dropped. */
const sixDigits = z
  .string({ error: TWO_FACTOR_MESSAGES.codeRequired })
  .transform((value) => value.replace(/[\s-]/g, ""))
  .pipe(
    z
      .string()
      .min(1, TWO_FACTOR_MESSAGES.codeRequired)
      .regex(/^\d{6}$/, TWO_FACTOR_MESSAGES.codeFormat),
  );

/** A backup code as the library makes it (abcde-12345); typed with or without its dash, any spaces dropped. */
const backupCode = z
  .string({ error: TWO_FACTOR_MESSAGES.codeRequired })
  .transform((value) => value.replace(/\s/g, ""))
  .pipe(
    z
      .string()
      .min(1, TWO_FACTOR_MESSAGES.codeRequired)
      .regex(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/, TWO_FACTOR_MESSAGES.backupCodeFormat)
      .transform((value) => (value.includes("-") ? value : `${value.slice(0, 5)}-${value.slice(5)}`)),
  );

export const SecondFactorCodeForm = z.discriminatedUnion("method", [
  z.object({ method: z.literal("totp"), code: sixDigits }),
  z.object({ method: z.literal("sms"), code: sixDigits }),
  z.object({ method: z.literal("backup"), code: backupCode }),
]);

const password = z.string({ error: MESSAGES.required }).min(1, MESSAGES.required).max(128);

/** Re-entering the password: to start enrolment, regenerate backup codes or remove the factor. */
export const TwoFactorPasswordForm = z.object({ password });

/**
 * A number for texted codes, with the password. Numbers without a country code are read as US
 * numbers (the club plays in New England); kept in E.164 form (+18605550142), as gateways take it.
 */
export const PhoneNumberForm = z.object({
  phone: z
    .string({ error: TWO_FACTOR_MESSAGES.phoneRequired })
    .trim()
    .min(1, TWO_FACTOR_MESSAGES.phoneRequired)
    .max(40, TWO_FACTOR_MESSAGES.phoneInvalid)
    .refine((value) => isValidPhoneNumber(value, "US"), TWO_FACTOR_MESSAGES.phoneInvalid)
    .transform((value) => parsePhoneNumberWithError(value, "US").number),
  password,
});

/** The code texted to the number being added. */
export const ConfirmPhoneForm = z.object({ code: sixDigits });

/** The first code from the authenticator app, with the enrolment's otpauth:// address to show the QR code again after a mistake. */
export const ConfirmEnrolmentForm = z.object({
  code: sixDigits,
  uri: z.string().max(500).startsWith("otpauth://totp/"),
});

/** The backup codes sent back for the .txt download (they are on the page that posts them). */
export const BackupCodesDownloadForm = z.object({
  codes: z
    .string()
    .max(400)
    .transform((value) => value.split(/\s+/).filter(Boolean))
    .pipe(
      z
        .array(z.string().regex(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/))
        .min(1)
        .max(10),
    ),
});
