/**
 * The sign-in and sign-up forms checked in the page with the server's own schemas. The sign-in
 * page's script loads this at the first touch of the form, so the page starts without Zod
 * (most of its script, and most of its start-up time on a slow phone).
 */
import { newPasswordMessage, SignInForm, SignUpForm } from "~/features/accounts/auth.form";
import { fieldErrors, formFields, type FieldErrors } from "~/web/forms/kernel";

/** The form's mistakes by field (none when it may be sent), and the message above the form, if any. */
export function checkAuthForm(form: HTMLFormElement): { errors: FieldErrors; message?: string } {
  const schema = form.dataset.authForm === "signup" ? SignUpForm : SignInForm;
  const parsed = schema.safeParse(formFields(new FormData(form)));
  if (parsed.success) return { errors: {} };
  const errors = fieldErrors(parsed.error);
  return { errors, message: newPasswordMessage(errors) };
}
