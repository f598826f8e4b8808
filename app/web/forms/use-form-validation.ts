import { useState, type FocusEvent, type FormEvent } from "react";
import type { z } from "zod";
import { fieldErrors, formFields, type FieldErrors } from "./kernel";

/**
 * Checks a form in the page with the same Zod schema the server uses: one field when
 * it loses focus, every field on submit (stopping the submit when any is wrong).
 * A field showing an error is re-checked as it is typed in, so the message goes as soon
 * as it is fixed; clearing it only on blur would shift the page under a click on Submit.
 */
export function useFormValidation(schema: z.ZodObject, serverErrors?: FieldErrors) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitFailed, setSubmitFailed] = useState(false);

  function validateField(name: string, value: string) {
    const field = schema.shape[name] as z.ZodType | undefined;
    if (!field) return;
    const result = field.safeParse(value);
    setErrors((current) => {
      const next = { ...current };
      if (result.success) delete next[name];
      else next[name] = result.error.issues[0]?.message ?? "";
      return next;
    });
  }

  return {
    errors: { ...serverErrors, ...errors } as FieldErrors,
    submitFailed,
    onChange(event: FormEvent<HTMLFormElement>) {
      const target = event.target as unknown as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
      if (target.name && errors[target.name] !== undefined) validateField(target.name, target.value);
    },
    onBlur(event: FocusEvent<HTMLFormElement>) {
      const target = event.target as unknown as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
      if (target.name && target.type !== "radio") validateField(target.name, target.value);
    },
    onSubmit(event: FormEvent<HTMLFormElement>) {
      const parsed = schema.safeParse(formFields(new FormData(event.currentTarget)));
      if (parsed.success) {
        setErrors({});
        setSubmitFailed(false);
        return;
      }
      event.preventDefault();
      setErrors(fieldErrors(parsed.error));
      setSubmitFailed(true);
      const first = parsed.error.issues[0]?.path[0];
      if (first !== undefined) event.currentTarget.querySelector<HTMLElement>(`[name="${String(first)}"]`)?.focus();
    },
    clear(name: string) {
      setErrors((current) => {
        const next = { ...current };
        delete next[name];
        return next;
      });
    },
  };
}
