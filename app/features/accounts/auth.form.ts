import { z } from "zod";
import { type FieldErrors, hasControlCharacters, textField } from "~/web/forms/kernel";
import { MESSAGES, SITE_MESSAGES } from "~/web/forms/messages";
import { meetsPasswordRules } from "./password-rules";

/** The longest email address there can be (RFC 5321's path limit). */
export const EMAIL_MAX = 254;
/** A member's first or last name. */
export const PERSON_NAME_MAX = 80;

export const email = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(EMAIL_MAX, SITE_MESSAGES.invalidEmail)
  .pipe(z.email(SITE_MESSAGES.invalidEmail))
  .transform((value) => value.toLowerCase());
const newPassword = z
  .string({ error: MESSAGES.required })
  .min(1, MESSAGES.required)
  .max(128, "Please keep your password to 128 characters or fewer")
  .refine(meetsPasswordRules, MESSAGES.passwordRequirements);

export const SignInForm = z.object({
  email,
  password: z.string({ error: MESSAGES.required }).min(1, MESSAGES.required).max(128),
});

export const SignUpForm = z
  .object({
    firstName: textField(PERSON_NAME_MAX),
    lastName: textField(PERSON_NAME_MAX),
    email,
    password: newPassword,
    confirmPassword: z.string({ error: MESSAGES.required }).min(1, MESSAGES.required),
  })
  .refine((form) => form.password === form.confirmPassword, {
    path: ["confirmPassword"],
    message: MESSAGES.passwordsDontMatch,
  });

export const ForgotPasswordForm = z.object({ email });

export const ResetPasswordForm = z
  .object({
    token: z
      .string()
      .min(1)
      .max(200)
      .refine((token) => !hasControlCharacters(token)),
    password: newPassword,
    confirmPassword: z.string({ error: MESSAGES.required }).min(1, MESSAGES.required),
  })
  .refine((form) => form.password === form.confirmPassword, {
    path: ["confirmPassword"],
    message: MESSAGES.passwordsDontMatch,
  });

/** A signed-in member's new password: the current one, the new one twice, and whether to end the other sessions. */
export const ChangePasswordForm = z
  .object({
    currentPassword: z
      .string({ error: MESSAGES.required })
      .min(1, MESSAGES.required)
      .max(128, "Please keep your password to 128 characters or fewer"),
    password: newPassword,
    confirmPassword: z.string({ error: MESSAGES.required }).min(1, MESSAGES.required),
    // A checkbox: sent as "on" when checked, absent when not.
    signOutOthers: z.literal("on").optional(),
  })
  .refine((form) => form.password === form.confirmPassword, {
    path: ["confirmPassword"],
    message: MESSAGES.passwordsDontMatch,
  });

/**
 * The message above a refused form that chooses a password: its rules when the password
 * breaks them, else the mismatch of its confirmation, else none (the fields say the rest).
 */
export function newPasswordMessage(errors: FieldErrors): string | undefined {
  if (errors.password === MESSAGES.passwordRequirements) return MESSAGES.passwordRequirements;
  if (errors.confirmPassword === MESSAGES.passwordsDontMatch) return MESSAGES.passwordsDontMatch;
  return undefined;
}
