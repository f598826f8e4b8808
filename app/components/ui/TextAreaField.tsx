import { useId, type ReactNode, type TextareaHTMLAttributes } from "react";
import { FieldError } from "./Field";

type Props = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: ReactNode;
  name: string;
  error?: string;
  hint?: ReactNode;
};

export function TextAreaField({ label, name, error, hint, id, ...textarea }: Props) {
  const autoId = useId();
  const fieldId = id ?? `${name}-${autoId}`;
  const describedBy =
    [hint ? `${fieldId}-hint` : null, error ? `${fieldId}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={fieldId} className="font-bold text-parchment">
        {label}
      </label>
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
