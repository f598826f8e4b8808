import { Icon } from "~/components/Icon";
import { useId, type InputHTMLAttributes } from "react";
import { FieldError, inputClass } from "~/components/ui/Field";
import { togglePasswordVisibility } from "./password-behaviour";

type Props = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  name: string;
  error?: string;
  describedBy?: string;
};

/**
 * A password input with a show/hide toggle. The toggle is sent with the page and shown only
 * where scripts run; password-behaviour.ts flips it (here on a click React hands over, on the
 * sign-in page from that page's own script).
 */
export function PasswordField({ label, name, error, describedBy, ...input }: Props) {
  const id = `${name}-${useId()}`;
  const describedByIds = [describedBy, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const noun = label.toLowerCase();
  return (
    <div data-field="" className="flex flex-col gap-1">
      <label htmlFor={id} className="font-bold text-parchment">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          name={name}
          type="password"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedByIds}
          className={`${inputClass} pr-12`}
          {...input}
        />
        <button
          type="button"
          data-password-toggle=""
          data-label={noun}
          onClick={(event) => togglePasswordVisibility(event.currentTarget)}
          aria-controls={id}
          aria-label={`Show ${noun}`}
          aria-pressed={false}
          className="js-only absolute inset-y-0 right-0 flex w-11 items-center justify-center text-dust hover:text-brass"
        >
          <Icon name="eye" className="size-5" />
        </button>
      </div>
      {error ? <FieldError id={`${id}-error`}>{error}</FieldError> : null}
    </div>
  );
}
