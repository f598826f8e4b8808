import { useId, type InputHTMLAttributes, type ReactNode } from "react";
import { MarkedLabel } from "./Required";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  name: string;
  error?: string;
  hint?: ReactNode;
  /** Shows the required mark beside the label (a form that says what it means: RequiredNote). */
  markRequired?: boolean;
};

export const inputClass =
  "w-full rounded-md border border-timber bg-ink px-3 py-2 text-parchment placeholder:text-dust/60 focus:border-brass aria-[invalid=true]:border-blood";

/** A labelled input whose error is announced with it. */
export function Field({ label, name, error, hint, id, className = "", markRequired, ...input }: FieldProps) {
  const autoId = useId();
  const inputId = id ?? `${name}-${autoId}`;
  const describedBy =
    [hint ? `${inputId}-hint` : null, error ? `${inputId}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div data-field="" className={`flex flex-col gap-1 ${className}`}>
      <MarkedLabel marked={markRequired && input.required}>
        <label htmlFor={inputId} className="font-bold text-parchment">
          {label}
        </label>
      </MarkedLabel>
      <input
        id={inputId}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={inputClass}
        {...input}
      />
      {hint ? (
        <p id={`${inputId}-hint`} className="text-sm text-dust">
          {hint}
        </p>
      ) : null}
      {error ? <FieldError id={`${inputId}-error`}>{error}</FieldError> : null}
    </div>
  );
}

export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="text-sm font-bold text-blood">
      {children}
    </p>
  );
}

/** The email address someone signs in with, which the browser may fill in from what it knows. */
export function EmailField({ defaultValue, error }: { defaultValue?: string; error?: string }) {
  return (
    <Field
      label="Email"
      name="email"
      type="email"
      autoComplete="email"
      required
      defaultValue={defaultValue}
      error={error}
    />
  );
}

/** A box someone ticks to say they understand what a form will do (sent as `confirm`), its error announced with it. */
export function ConfirmCheckbox({ error, children }: { error?: string; children: ReactNode }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          name="confirm"
          className="mt-1 size-5 shrink-0"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {children}
      </label>
      {error ? <FieldError id={`${id}-error`}>{error}</FieldError> : null}
    </div>
  );
}
