import { Icon } from "~/components/Icon";
import { useId, useState, type InputHTMLAttributes } from "react";
import { FieldError, inputClass } from "~/components/ui/Field";
import { useHydrated } from "~/lib/use-hydrated";

type Props = InputHTMLAttributes<HTMLInputElement> & { label: string; name: string; error?: string; describedBy?: string };

/** A password input with a show/hide toggle (the toggle appears once JavaScript runs). */
export function PasswordField({ label, name, error, describedBy, ...input }: Props) {
  const id = `${name}-${useId()}`;
  const [visible, setVisible] = useState(false);
  const hydrated = useHydrated();
  const describedByIds = [describedBy, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-bold text-parchment">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          name={name}
          type={visible ? "text" : "password"}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedByIds}
          className={`${inputClass} pr-12`}
          {...input}
        />
        {hydrated ? (
          <button
            type="button"
            onClick={() => setVisible((v) => !v)}
            aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
            aria-pressed={visible}
            className="absolute inset-y-0 right-0 flex w-11 items-center justify-center text-dust hover:text-brass"
          >
            {visible ? <Icon name="eye-off" className="size-5" /> : <Icon name="eye" className="size-5" />}
          </button>
        ) : null}
      </div>
      {error ? <FieldError id={`${id}-error`}>{error}</FieldError> : null}
    </div>
  );
}
