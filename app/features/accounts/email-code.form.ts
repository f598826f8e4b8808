import { z } from "zod";
import { email } from "./auth.form";
import { MESSAGES } from "~/web/forms/messages";

/** What members see when signing in with an emailed code or changing their email address. */
/** The email-code page's notice, shown once after a code that also removed the account's old password. */
export const PASSWORD_REMOVED = "password-removed";

export const EMAIL_CODE_MESSAGES = {
  /** The same answer whether or not the address has an account. */
  sent: (address: string) => `If ${address} belongs to an account, we have emailed it a 6-digit sign-in code.`,
  codeFormat: "Enter the 6 digits from the email",
  wrongCode: "That code is not right. Check the email and try again.",
  expiredCode: "That code has expired. Ask for a new one below.",
  usedCode: "That code has already been used. Ask for a new one below.",
  tooManyTries: "Too many wrong tries: that code no longer works. Ask for a new one below.",
  signInFailed: "You could not be signed in just now. Please try again.",
  sendFailed: "The code could not be sent just now. Please try again.",
  /** "You can ask for another code in 45 seconds." */
  waitBeforeResend: (wait: string) => `You can ask for another code in ${wait}.`,
} as const;

export const EMAIL_CHANGE_MESSAGES = {
  sent: (address: string) =>
    `We have emailed a confirmation link to ${address}. Your email address changes when you follow it.`,
  sameEmail: "That is already your email address",
  taken: "That email address is already used by another account",
  noPassword:
    'Your account has no password yet. Set one with "Forgot Password?" on the sign-in page, then change your email here.',
  failed: "Your email address could not be changed. Please try again.",
  changed: (address: string) => `Your email address is now ${address}. A notice went to your old address.`,
  linkExpired: "This link has expired. Ask for a new one on your profile's Email page.",
  linkInvalid:
    "This link is not valid or has already been used. Ask for a new one on your profile's Email page if you need to.",
  otherAccount: "This link was sent for another account. Sign in as the member who asked for it to confirm it.",
} as const;

/** "45 seconds", "1 second", "3 minutes" (rounded up past two minutes). */
export function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds <= 120) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

export const EmailCodeRequestForm = z.object({ email });

export const EmailCodeForm = z.object({
  email,
  code: z
    .string({ error: MESSAGES.required })
    // Spaces and dashes a member may type or paste between the digits are ignored.
    .transform((value) => value.replace(/[\s-]/g, ""))
    .pipe(
      z
        .string()
        .min(1, MESSAGES.required)
        .regex(/^\d{6}$/, EMAIL_CODE_MESSAGES.codeFormat),
    ),
});

export const ChangeEmailForm = z.object({
  newEmail: email,
  currentPassword: z
    .string({ error: MESSAGES.required })
    .min(1, MESSAGES.required)
    .max(128, "Please keep your password to 128 characters or fewer"),
});
