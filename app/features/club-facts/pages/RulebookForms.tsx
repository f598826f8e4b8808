import type { FormEvent, ReactNode } from "react";
import { Form } from "react-router";
import { UploadProgress } from "~/components/UploadProgress";
import { Field, FieldError } from "~/components/ui/Field";
import { SubmitButton } from "~/components/ui/SubmitButton";
import { useUpload } from "~/web/forms/use-upload";
import { RULEBOOK_MESSAGES, rulebookFileProblem } from "./rulebook.facts";
import type { RulebookAnswer, RulebookNow } from "./rulebook-page.server";

/** The managers' rulebook page's address: its forms post here, the upload's script too. */
/** Where the page's script sends the PDF, to show its progress: the page's action answered in JSON. */
const RULEBOOK_UPLOAD = "/tools/club/rulebook/upload";

/** The rulebook shown now, in a sentence. */
export function RulebookNowPanel({ now }: { now: RulebookNow }) {
  let shown: ReactNode;
  if (now.source === "link")
    shown = (
      <>
        the page at{" "}
        <a href={now.url} target="_blank" rel="noopener noreferrer" className="break-all">
          {now.url}
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
        .
      </>
    );
  else if (now.source === "file") shown = `the PDF uploaded here, ${now.fileName} (${now.size}).`;
  else if (now.builtIn === "shipped") shown = "the built-in rulebook, as the site shipped it.";
  else shown = `the built-in rulebook, which on this site is the ${now.builtIn} (set in the site's settings).`;
  return (
    <section aria-labelledby="now-heading" className="panel flex flex-col gap-2">
      <h2 id="now-heading" className="text-2xl">
        Shown now
      </h2>
      <p>The rulebook page shows {shown}</p>
    </section>
  );
}

/**
 * "Upload a PDF". Without JavaScript a plain form post; with it, a file that is not a PDF or too
 * large is caught before it is sent, and the file goes by XMLHttpRequest so its progress shows
 * (the page answers it in JSON). `onAnswer` hears the page's answer; `saved` runs once it is saved.
 */
export function RulebookUploadForm({
  version,
  error,
  busy,
  onAnswer,
  saved,
}: {
  version: number;
  error?: string;
  busy: boolean;
  onAnswer: (answer: RulebookAnswer) => void;
  saved: () => void;
}) {
  const upload = useUpload();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = new FormData(form);
    const file = body.get("file");
    const problem = rulebookFileProblem(file instanceof File ? file : null);
    if (problem) return onAnswer({ errors: { file: problem } });
    onAnswer({});
    const answer = await upload.send(RULEBOOK_UPLOAD, body);
    // A body past the server's limit is refused before the page, with a page rather than JSON.
    const shown = (answer.body as RulebookAnswer | null) ?? {
      ...(answer.status === 413 ? { errors: { file: RULEBOOK_MESSAGES.file } } : { message: RULEBOOK_MESSAGES.failed }),
    };
    onAnswer(shown);
    if (answer.status >= 200 && answer.status < 300) {
      form.reset();
      saved();
    }
  }

  return (
    <section aria-labelledby="upload-heading" className="panel flex flex-col gap-4">
      <h2 id="upload-heading" className="text-2xl">
        Upload a PDF
      </h2>
      <Form method="post" encType="multipart/form-data" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <input type="hidden" name="version" value={version} />
        <input type="hidden" name="intent" value="upload" />
        <div className="flex flex-col gap-1">
          <label htmlFor="rulebook-file" className="font-bold">
            The rulebook as a PDF
          </label>
          <p id="rulebook-file-hint" className="text-sm text-dust">
            A PDF of up to 5 MB. The rulebook page shows it in its viewer, and phones are offered to open or save it.
          </p>
          <input
            id="rulebook-file"
            name="file"
            type="file"
            accept=".pdf,application/pdf"
            aria-describedby={error ? "rulebook-file-hint rulebook-file-error" : "rulebook-file-hint"}
            aria-invalid={error ? true : undefined}
            className="min-h-11 rounded-md border border-timber bg-ink px-3 py-2 file:mr-3 file:rounded file:border-0 file:bg-rust-dark file:px-3 file:py-1 file:text-parchment"
          />
          {error ? <FieldError id="rulebook-file-error">{error}</FieldError> : null}
        </div>
        <UploadProgress id="rulebook-upload-progress" progress={upload.progress} checking="Checking the PDF…" />
        <SubmitButton className="btn btn-primary self-start" busy={busy || upload.progress !== null}>
          {upload.progress !== null ? "Uploading…" : "Upload the PDF"}
        </SubmitButton>
      </Form>
    </section>
  );
}

/** "Link to it": the rulebook kept elsewhere, at an https address. */
export function RulebookLinkForm({
  version,
  url,
  error,
  busy,
}: {
  version: number;
  url: string;
  error?: string;
  busy: boolean;
}) {
  return (
    <section aria-labelledby="link-heading" className="panel flex flex-col gap-4">
      <h2 id="link-heading" className="text-2xl">
        Link to it
      </h2>
      <Form method="post" noValidate className="flex flex-col gap-4">
        <input type="hidden" name="version" value={version} />
        <Field
          label="The rulebook's address"
          name="url"
          type="url"
          inputMode="url"
          autoComplete="off"
          maxLength={2000}
          placeholder="https://"
          defaultValue={url}
          error={error}
          hint="An address starting with https://. The rulebook page shows it in its viewer when its site allows that (a document published to the web usually does), and a button opens it on its own page."
        />
        <SubmitButton name="intent" value="link" className="btn btn-primary self-start" busy={busy}>
          Save the link
        </SubmitButton>
      </Form>
    </section>
  );
}

/** "The built-in rulebook": back to what the site shows of itself. */
export function RulebookBuiltInForm({ version, current, busy }: { version: number; current: boolean; busy: boolean }) {
  return (
    <section aria-labelledby="built-in-heading" className="panel flex flex-col gap-4">
      <h2 id="built-in-heading" className="text-2xl">
        The built-in rulebook
      </h2>
      <p>
        The rulebook the site comes with, or the PDF or address the site&apos;s operator set in its settings
        (RULEBOOK_PDF, RULEBOOK_EMBED_URL).
      </p>
      {current ? (
        <p className="text-dust">It is the one shown now.</p>
      ) : (
        <Form method="post">
          <input type="hidden" name="version" value={version} />
          <SubmitButton name="intent" value="built-in" className="btn btn-secondary" busy={busy}>
            Use the built-in rulebook
          </SubmitButton>
        </Form>
      )}
    </section>
  );
}
