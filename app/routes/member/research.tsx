import { useState, type FormEvent } from "react";
import { data, Form } from "react-router";
import type { Route } from "./+types/research";
import { EventSelect } from "~/features/events/EventSelect";
import { FormFootButton } from "~/components/ui/SubmitButton";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { SuccessPanel } from "~/components/SuccessPanel";
import { ErrorSummary } from "~/components/ErrorSummary";
import { MarkedLabel, RequiredNote } from "~/components/ui/Required";
import { RecordLink } from "~/features/my-record/RecordLink";
import { FieldError } from "~/components/ui/Field";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { fieldErrors, type FieldErrors, formFields } from "~/web/forms/kernel";
import { fileProblem, ResearchForm, researchMessage } from "~/features/submissions/research.form";
import { readResearchUpload } from "~/features/submissions/research-upload.server";
import { RESEARCH_MESSAGES, SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { failSafely } from "~/web/actions.server";
import { useUpload } from "~/web/forms/use-upload";
import { UploadProgress } from "~/components/UploadProgress";
import { requireAccess } from "~/web/guards.server";
import { submitResearch } from "~/features/submissions/research.server";
import { listEventsNotCancelled } from "~/features/events/events.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "member");
  return { events: await listEventsNotCancelled(), submissionKey: crypto.randomUUID() };
}

type Result = { submitted?: boolean; message?: string; errors?: FieldErrors; values?: Record<string, string> };

/**
 * Without JavaScript the form posts here; with it, the page sends to /research/upload (the
 * same action, answered in JSON) to show progress. The form is read before the domain is
 * called, so a failure gives back what was typed.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const upload = await readResearchUpload(request);
  if (!upload.ok) return data<Result>({ message: upload.message }, { status: upload.status });
  try {
    return await failSafely<Result>(
      "saving research",
      { message: RESEARCH_MESSAGES.failed, values: upload.values },
      async () => {
        const outcome = await submitResearch(user, upload);
        if (outcome.ok) return data({ submitted: true });
        return data({ message: outcome.message, errors: outcome.errors, values: outcome.values }, { status: 400 });
      },
    );
  } finally {
    // Stored by now, or refused: the copy the upload was written to goes.
    await upload.file?.discard();
  }
}

/** The server's checks, run in the page so a member learns of a wrong file before uploading it. */
function checkInPage(form: HTMLFormElement): string | null {
  const fields = new FormData(form);
  const parsed = ResearchForm.safeParse(formFields(fields));
  if (!parsed.success) return researchMessage(fieldErrors(parsed.error));
  const file = fields.get("file");
  return fileProblem(file instanceof File ? file : null);
}

export default function Research({ loaderData, actionData }: Route.ComponentProps) {
  const [result, setResult] = useState<Result | undefined>(undefined);
  const upload = useUpload();
  const shown = result ?? actionData;
  const values = shown?.values ?? {};

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const problem = checkInPage(form);
    if (problem) {
      setResult({ message: problem });
      return;
    }
    setResult({});
    const answer = await upload.send("/research/upload", new FormData(form));
    if (answer.status >= 200 && answer.status < 300) setResult({ submitted: true });
    else if (answer.body) setResult(answer.body as Result);
    // A body past the server's limit is refused before the route, with a page rather than JSON.
    else setResult({ message: answer.status === 413 ? RESEARCH_MESSAGES.fileSize : RESEARCH_MESSAGES.failed });
  }

  if (shown?.submitted) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-10">
        <SuccessPanel title="Research Submitted!" to="/profile" destination="your profile">
          <p>
            Your findings are with the Union Research Initiative&apos;s clerks. Staff will read them before the next
            event.
          </p>
        </SuccessPanel>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-5xl">Research</h1>
      <hr className="divider my-6" />
      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        onSubmit={onSubmit}
        className="panel flex flex-col gap-5"
      >
        <p className="text-dust">
          File your character&apos;s research: your notes, your sources and a document or picture (JPG, PNG or PDF, up
          to 5 MB). <RecordLink kind="research">Your research so far</RecordLink>, with staff&apos;s replies, is in your
          record.
        </p>
        <RequiredNote />
        <ErrorSummary message={shown?.message} answer={shown} />
        <input type="hidden" name="submissionKey" value={values.submissionKey ?? loaderData.submissionKey} />
        <EventSelect
          events={loaderData.events}
          defaultValue={values.eventId}
          error={shown?.errors?.eventId}
          emptyText="No events yet"
          required
        />
        <TextAreaField
          label="Sources"
          hint="Books, people, places or experiments your character drew on."
          name="sources"
          rows={4}
          maxLength={10_000}
          required
          markRequired
          defaultValue={values.sources}
        />
        <TextAreaField
          label="Research notes"
          name="research"
          rows={10}
          maxLength={20_000}
          required
          markRequired
          defaultValue={values.research}
        />
        <div className="flex flex-col gap-1">
          <MarkedLabel marked>
            <label htmlFor="file" className="font-bold">
              File
            </label>
          </MarkedLabel>
          <input
            id="file"
            name="file"
            type="file"
            required
            accept=".jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf"
            aria-describedby="file-hint"
            className="rounded-md border border-timber bg-ink px-3 py-2 file:mr-3 file:rounded file:border-0 file:bg-rust-dark file:px-3 file:py-1 file:text-parchment"
          />
          <p id="file-hint" className="text-sm text-dust">
            JPG, JPEG, PNG or PDF, less than 5 MB.
          </p>
          {shown?.errors?.file ? <FieldError id="file-error">{shown.errors.file}</FieldError> : null}
        </div>
        <UploadProgress id="upload-progress" progress={upload.progress} checking="Checking the file…" />
        <FormFootButton busy={upload.progress !== null} busyLabel="Uploading…">
          Submit Research
        </FormFootButton>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Research · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Research", SUBMISSION_MESSAGES.loadFailed);
