import { PasswordChecklist } from "./PasswordChecklist";
import { PasswordField } from "./PasswordField";
import { showPasswordRules } from "./password-behaviour";
import type { FieldErrors } from "~/web/forms/kernel";

const RULES_ID = "password-rules";

/**
 * A new password, the site's rules ticked off as it is typed, and its confirmation: the
 * same three fields wherever a password is chosen (sign-up, reset, the first manager, the
 * profile). The form's fields are `password` and `confirmPassword`. `data-password-rules`
 * lets a page without React tick the rules too (password-behaviour.ts).
 */
export function NewPasswordFields({
  errors,
  label = "Password",
  confirmLabel = "Confirm password",
}: {
  errors?: FieldErrors;
  label?: string;
  confirmLabel?: string;
}) {
  return (
    <>
      <PasswordField
        label={label}
        name="password"
        autoComplete="new-password"
        required
        error={errors?.password}
        describedBy={RULES_ID}
        data-password-rules={RULES_ID}
        onChange={(event) => showPasswordRules(document.getElementById(RULES_ID), event.currentTarget.value)}
      />
      <PasswordChecklist id={RULES_ID} />
      <PasswordField
        label={confirmLabel}
        name="confirmPassword"
        autoComplete="new-password"
        required
        error={errors?.confirmPassword}
      />
    </>
  );
}
