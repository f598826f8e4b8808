import { Form } from "react-router";
import { ListRows, PlaceInOrder, TickBox } from "../ListRowControls";
import { Alert } from "~/components/ui/Alert";
import { Field } from "~/components/ui/Field";
import { PreviewAndSave } from "../PreviewAndSave";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { FORMATTED_TEXT_HINT, FORMATTED_TEXT_MAX } from "~/lib/formatted-text.limits";
import { FAQ_QUESTION_MAX } from "../club-facts.form";
import type { FaqAnswer, FaqRow } from "./faq-page.server";

/** The FAQ as one form: a fieldset a question, then a blank one to add a question. */
export function FaqForm({
  rows,
  version,
  answer,
  busy,
}: {
  rows: FaqRow[];
  version: number;
  answer?: FaqAnswer;
  busy: boolean;
}) {
  const errors = answer?.errors ?? {};
  return (
    <Form method="post" noValidate className="flex flex-col gap-6" aria-labelledby="faq-form-heading">
      <h2 id="faq-form-heading" className="text-2xl">
        Questions and answers
      </h2>
      <p className="text-dust">
        Change a question or its answer, give it another place in the order, or tick “Remove” to take it off the page.
        The last box adds a question. Nothing changes on the site until you save; every saved version stays in the
        history below.
      </p>
      <ListRows
        rows={rows}
        blank={{ id: "", question: "", answer: "", position: String(rows.length + 1), remove: false }}
        version={version}
        noun="question"
        keyOf={(row) => row.id}
        className="panel flex flex-col gap-3"
        fields={(row, n, isNew) => (
          <>
            <input type="hidden" name={`id-${n}`} value={row.id} />
            <Field
              label="Question"
              name={`question-${n}`}
              maxLength={FAQ_QUESTION_MAX}
              defaultValue={row.question}
              error={errors[`question-${n}`]}
            />
            <TextAreaField
              label="Answer"
              name={`answer-${n}`}
              rows={isNew ? 3 : 5}
              maxLength={FORMATTED_TEXT_MAX}
              hint={FORMATTED_TEXT_HINT}
              defaultValue={row.answer}
              error={errors[`answer-${n}`]}
            />
            <div className="flex flex-wrap items-end gap-4">
              <PlaceInOrder name={`position-${n}`} position={row.position} />
              {isNew ? null : (
                <TickBox name={`remove-${n}`} checked={row.remove}>
                  Remove this question
                </TickBox>
              )}
            </div>
          </>
        )}
      />
      <PreviewAndSave busy={busy} save="Save the FAQ" />
    </Form>
  );
}

/** The answers as members will read them, before anything is saved. */
export function FaqPreview({ preview }: { preview: NonNullable<FaqAnswer["preview"]> }) {
  return (
    <section aria-labelledby="faq-preview-heading" className="panel flex flex-col gap-4">
      <h2 id="faq-preview-heading" className="text-2xl">
        Preview: not saved yet
      </h2>
      {preview.map((entry, n) => (
        <div key={n}>
          <h3 className="font-serif text-xl text-brass">{entry.question}</h3>
          {/* Made by formattedTextHtml on the server: only the safe subset, no HTML of the writer's. */}
          <div className="prose-western" dangerouslySetInnerHTML={{ __html: entry.html }} />
        </div>
      ))}
    </section>
  );
}

/** The outcome of the last press, above the form. */
export function FaqNotice({ answer }: { answer?: FaqAnswer }) {
  if (answer?.ok) return <Alert kind="success">{answer.ok}</Alert>;
  if (answer?.message) return <Alert kind="error">{answer.message}</Alert>;
  return null;
}
