import { data } from "react-router";
import { z } from "zod";
import { MESSAGES } from "./messages";

/**
 * The form kernel: reading a posted form, checking it with the form's Zod schema, and the
 * field schemas every form shares. Pages run the same schemas in the browser
 * (`useFormValidation`), so a rule is written once.
 */

export type FieldErrors = Record<string, string>;
export type FormValues = Record<string, string | undefined>;

export const FORM_MESSAGES = {
  controlCharacters: "Please remove the invisible control characters from this field",
  unreadable: "This form could not be read. Please go back, reload the page and send it again.",
  invalidSearch: "Please search with letters, numbers and punctuation only",
} as const;

/**
 * Control characters other than tab, line feed and carriage return: nobody types them,
 * and PostgreSQL refuses NUL in text, so they are turned back at the form with a message
 * instead of failing in the database.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTER.test(value);
}

/** Any text a member types: trimmed, required, at most `max` characters, no control characters. */
export function textField(max: number, messages: { required?: string; tooLong?: string } = {}) {
  const required = messages.required ?? MESSAGES.required;
  return z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, messages.tooLong ?? `Please keep this to ${max.toLocaleString("en-US")} characters or fewer`)
    .refine((value) => !hasControlCharacters(value), FORM_MESSAGES.controlCharacters);
}

/** Text that may be left blank (blank reads as ""). */
export function optionalTextField(max: number, tooLong?: string) {
  return z
    .string()
    .trim()
    .max(max, tooLong ?? `Please keep this to ${max.toLocaleString("en-US")} characters or fewer`)
    .refine((value) => !hasControlCharacters(value), FORM_MESSAGES.controlCharacters);
}

/** A search box's text (`?q=`): cut to 100 characters as before, refused with control characters. */
export const searchTerm = z
  .string()
  .transform((value) => value.slice(0, 100))
  .refine((value) => !hasControlCharacters(value), FORM_MESSAGES.invalidSearch);

/** The `q` of an address, or a 400 page saying what is wrong with it. */
export function searchTermOf(url: URL | string, name = "q"): string {
  const parsed = searchTerm.safeParse(new URL(url).searchParams.get(name) ?? "");
  if (!parsed.success) throw data(FORM_MESSAGES.invalidSearch, { status: 400 });
  return parsed.data;
}

/** The first message for each field, for showing under the fields. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

/** A form's fields as strings; a repeated or file field is not a valid answer. */
export function formFields(formData: FormData): FormValues {
  const fields: FormValues = {};
  for (const key of new Set(formData.keys())) {
    const values = formData.getAll(key);
    fields[key] = values.length === 1 && typeof values[0] === "string" ? values[0] : undefined;
  }
  return fields;
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * A posted form's fields. A body that is not a form (JSON, plain text, a multipart body
 * whose boundary does not match, no content type) cannot be answered with the page's
 * field messages: it gets one 400 page, shown by the route's error boundary.
 */
export async function readForm(request: Request): Promise<FormValues> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!FORM_TYPES.includes(type)) throw unreadableForm();
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch (error) {
    // A client that went away is not a bad form; let the server's own handling see it.
    if (request.signal.aborted) throw error;
    throw unreadableForm();
  }
  return formFields(formData);
}

export function unreadableForm() {
  return data(FORM_MESSAGES.unreadable, { status: 400 });
}

export type ParsedForm<T> =
  { ok: true; data: T; values: FormValues } | { ok: false; errors: FieldErrors; values: FormValues };

/** Checks fields already read (by `readForm`, or a multipart parser) with the form's schema. */
export function checkForm<S extends z.ZodType>(schema: S, values: FormValues): ParsedForm<z.output<S>> {
  const parsed = schema.safeParse(values);
  return parsed.success
    ? { ok: true, data: parsed.data, values }
    : { ok: false, errors: fieldErrors(parsed.error), values };
}

/** Reads the posted form and checks it with `schema`: the first two steps of every action. */
export async function parseForm<S extends z.ZodType>(request: Request, schema: S): Promise<ParsedForm<z.output<S>>> {
  return checkForm(schema, await readForm(request));
}
