import { useId, type ReactNode, type TextareaHTMLAttributes } from "react";
import { FieldError } from "./Field";
import { MarkedLabel } from "./Required";

type Props = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: ReactNode;
  name: string;
  error?: string;
  hint?: ReactNode;
  /** Shows the required mark beside the label (a form that says what it means: RequiredNote). */
  markRequired?: boolean;
};

export function TextAreaField({ label, name, error, hint, id, markRequired, ...textarea }: Props) {
  const autoId = useId();
  const fieldId = id ?? `${name}-${autoId}`;
  const describedBy =
    [hint ? `${fieldId}-hint` : null, error ? `${fieldId}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <MarkedLabel marked={markRequired && textarea.required}>
        <label htmlFor={fieldId} className="font-bold text-parchment">
          {label}
        </label>
      </MarkedLabel>
      {hint ? (
        <p id={`${fieldId}-hint`} className="text-sm text-dust">
          {hint}
        </p>
      ) : null}
      <textarea
        id={fieldId}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="w-full rounded-md border border-timber bg-ink px-3 py-2 text-parchment focus:border-brass aria-[invalid=true]:border-blood"
        {...textarea}
      />
      {error ? <FieldError id={`${fieldId}-error`}>{error}</FieldError> : null}
    </div>
  );
}
