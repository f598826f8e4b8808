import { Field, FieldError, inputClass } from "~/components/ui/Field";
import { ROLE_LABELS, ROLES } from "~/game/roles";
import type { FieldErrors } from "~/web/forms/kernel";

/** The fields a manager fills in for a member's account, on the invitation page and the member's page. */

type NameAndEmail = { firstName: string; lastName: string; email: string };

/** First name, last name and email, starting from `defaults` (what was sent back, or what is saved). */
export function NameAndEmailFields({ defaults, errors }: { defaults: NameAndEmail; errors?: FieldErrors }) {
  return (
    <>
      <Field
        label="First name"
        name="firstName"
        required
        maxLength={80}
        autoComplete="off"
        defaultValue={defaults.firstName}
        error={errors?.firstName}
      />
      <Field
        label="Last name"
        name="lastName"
        required
        maxLength={80}
        autoComplete="off"
        defaultValue={defaults.lastName}
        error={errors?.lastName}
      />
      <Field
        label="Email"
        name="email"
        type="email"
        required
        autoComplete="off"
        defaultValue={defaults.email}
        error={errors?.email}
        className="sm:col-span-2"
      />
    </>
  );
}

/** The role list: every role, labelled as members read it. */
export function RoleSelect({ id, defaultValue, error }: { id: string; defaultValue: string; error?: string }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-bold">
        Role
      </label>
      <select
        id={id}
        name="role"
        defaultValue={defaultValue}
        className={inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </select>
      {error ? <FieldError id={`${id}-error`}>{error}</FieldError> : null}
    </div>
  );
}
