import { useState } from "react";
import { PasswordChecklist } from "./PasswordChecklist";
import { PasswordField } from "./PasswordField";
import type { FieldErrors } from "~/web/forms/kernel";

/**
 * A new password, the site's rules ticked off as it is typed, and its confirmation: the
 * same three fields wherever a password is chosen (sign-up, reset, the first manager, the
 * profile). The form's fields are `password` and `confirmPassword`.
 */
export function NewPasswordFields({ errors, label = "Password", confirmLabel = "Confirm password" }: { errors?: FieldErrors; label?: string; confirmLabel?: string }) {
  const [password, setPassword] = useState("");
  return (
    <>
      <PasswordField
        label={label}
        name="password"
        autoComplete="new-password"
        required
        error={errors?.password}
        describedBy="password-rules"
        onChange={(event) => setPassword(event.currentTarget.value)}
      />
      <PasswordChecklist id="password-rules" password={password} />
      <PasswordField label={confirmLabel} name="confirmPassword" autoComplete="new-password" required error={errors?.confirmPassword} />
    </>
  );
}
