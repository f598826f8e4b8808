import { useEffect, useRef, useState } from "react";
import { data, Form, useFetcher, useNavigation } from "react-router";
import type { Route } from "./+types/letters";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { SuccessPanel } from "~/components/SuccessPanel";
import { Alert } from "~/components/ui/Alert";
import { Field } from "~/components/ui/Field";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { type FieldErrors, formFields, parseForm } from "~/forms/kernel";
import { LetterForm, SUBMISSION_MESSAGES } from "~/forms/submissions";
import { TEXTAREA_ROWS, USER_SEARCH_DEBOUNCE_MS } from "~/game/rules";
import { failSafely } from "~/server/actions.server";
import { requireAccess } from "~/server/guards.server";
import { submitLetter } from "~/server/submissions.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "member");
  return { submissionKey: crypto.randomUUID() };
}

type ActionData = { submitted?: boolean; message?: string; errors?: FieldErrors; values?: Record<string, string | undefined> };

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const form = await parseForm(request, LetterForm);
  if (!form.ok) {
    const onlyBlanks = Object.values(form.errors).every((e) => e === SUBMISSION_MESSAGES.fillAllFields);
    return data<ActionData>({ message: onlyBlanks ? SUBMISSION_MESSAGES.fillAllFields : undefined, errors: form.errors, values: form.values }, { status: 400 });
  }
  return failSafely<ActionData>("saving a letter", { message: SUBMISSION_MESSAGES.letterFailed, values: form.values }, async () => {
    await submitLetter(user, form.data);
    return data({ submitted: true });
  });
}

/** Suggests existing characters' names as the member types (any name is still allowed). */
function RecipientField({ defaultValue, error }: { defaultValue?: string; error?: string }) {
  const fetcher = useFetcher<{ names: string[] }>();
  const [typed, setTyped] = useState(defaultValue ?? "");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  function onType(value: string) {
    setTyped(value);
    clearTimeout(timer.current);
    // Ask after a pause in typing, not on every key.
    if (value.trim().length > 0) timer.current = setTimeout(() => fetcher.load(`/letters/recipients?${new URLSearchParams({ q: value })}`), USER_SEARCH_DEBOUNCE_MS);
  }
  const names = typed.trim().length === 0 ? [] : (fetcher.data?.names ?? []);
  return (
    <>
      <Field
        label="To"
        name="recipient"
        hint="The character you are writing to. Names of characters in Hopewell are suggested as you type."
        list="recipient-suggestions"
        autoComplete="off"
        required
        maxLength={100}
        defaultValue={defaultValue}
        error={error}
        onChange={(event) => onType(event.currentTarget.value)}
      />
      <datalist id="recipient-suggestions">
        {names.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </>
  );
}

export default function Letters({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [localError, setLocalError] = useState(false);
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const values = actionData?.values ?? {};
  const errors = localError ? {} : (actionData?.errors ?? {});
  const message = localError ? SUBMISSION_MESSAGES.fillAllFields : actionData?.message;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-5xl">Write a Letter</h1>
      <hr className="divider my-6" />
      {actionData?.submitted ? (
        <SuccessPanel title="Letter Sent!" to="/profile" destination="your profile">
          <p>Your letter is on its way by the next stage out of Hopewell.</p>
        </SuccessPanel>
      ) : (
        <Form
          method="post"
          noValidate
          className="panel flex flex-col gap-5"
          onSubmit={(event) => {
            const blank = !LetterForm.safeParse(formFields(new FormData(event.currentTarget))).success;
            setLocalError(blank);
            if (blank) event.preventDefault();
          }}
        >
          {message ? <Alert kind="error">{message}</Alert> : null}
          <input type="hidden" name="submissionKey" value={values.submissionKey ?? loaderData.submissionKey} />
          <RecipientField defaultValue={values.recipient} error={errors.recipient} />
          <TextAreaField label="Letter" name="body" rows={TEXTAREA_ROWS.letter} maxLength={10_000} required defaultValue={values.body} error={errors.body} />
          <button type="submit" className="btn btn-primary self-center px-10" disabled={submitting}>
            {submitting ? "Sending…" : "Send Letter"}
          </button>
        </Form>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Write a Letter · Hopewell" }];

/** A form that could not be read, or a failure, keeps the page's heading and the member's navigation. */
export const ErrorBoundary = pageErrorBoundary("Write a Letter", SUBMISSION_MESSAGES.letterFailed);
