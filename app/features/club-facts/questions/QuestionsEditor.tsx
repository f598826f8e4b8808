import { Form } from "react-router";
import { ListRows, PlaceInOrder, TickBox } from "../ListRowControls";
import { Alert } from "~/components/ui/Alert";
import { Field } from "~/components/ui/Field";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { Asterisk, RequiredNote } from "~/components/ui/Required";
import { PreviewAndSave } from "../PreviewAndSave";
import { QuestionFields } from "./QuestionFields";
import { QUESTION_PAGES } from "./question-pages";
import { allRequired, QUESTION_HINT_MAX, QUESTION_LABEL_MAX, type AskedQuestion } from "./questions.facts";
import type { QuestionRow, QuestionsAnswer } from "./questions-page.server";
import type { QuestionKind } from "./questions.server";

const blankRow = (position: number): QuestionRow => ({
  key: "",
  label: "",
  hint: "",
  required: true,
  retired: false,
  position: String(position),
});

/** The questions as one form: a fieldset a question, then a blank one to add a question. */
export function QuestionsForm({
  kind,
  rows,
  version,
  answer,
  busy,
}: {
  kind: QuestionKind;
  rows: QuestionRow[];
  version: number;
  answer?: QuestionsAnswer;
  busy: boolean;
}) {
  const errors = answer?.errors ?? {};
  return (
    <Form method="post" noValidate className="flex flex-col gap-6" aria-labelledby="questions-form-heading">
      <h2 id="questions-form-heading" className="text-2xl">
        The questions
      </h2>
      <p className="text-dust">
        Reword a question or its hint, say whether it must be answered, give it another place in the order, or tick
        “Retired” to stop asking it (what was written stays as it was). The last box adds a question. Nothing changes on
        the site until you save; every saved version stays in the history below.
      </p>
      <ListRows
        rows={rows}
        blank={blankRow(rows.length + 1)}
        version={version}
        noun="question"
        keyOf={(row) => row.key}
        isRetired={(row) => row.retired}
        className="panel flex flex-col gap-3"
        fields={(row, n, isNew) => (
          <>
            <input type="hidden" name={`key-${n}`} value={row.key} />
            <TextAreaField
              label="Question"
              name={`label-${n}`}
              rows={2}
              maxLength={QUESTION_LABEL_MAX}
              defaultValue={row.label}
              error={errors[`label-${n}`]}
            />
            <Field
              label="Hint"
              hint="A line under the question, to help answer it. Leave it empty for none."
              name={`hint-${n}`}
              maxLength={QUESTION_HINT_MAX}
              defaultValue={row.hint}
              error={errors[`hint-${n}`]}
            />
            <div className="flex flex-wrap items-end gap-x-6 gap-y-2">
              <PlaceInOrder name={`position-${n}`} position={row.position} />
              <TickBox name={`required-${n}`} checked={row.required}>
                Required
              </TickBox>
              {isNew ? null : (
                <TickBox name={`retired-${n}`} checked={row.retired}>
                  Retired
                </TickBox>
              )}
            </div>
          </>
        )}
      />
      <PreviewAndSave busy={busy} save={QUESTION_PAGES[kind].save} />
    </Form>
  );
}

/**
 * The questions as the member's form will ask them, before anything is saved: the retired ones
 * left out, each with its hint, the required ones marked as the form marks them.
 */
export function QuestionsPreview({ kind, preview }: { kind: QuestionKind; preview: AskedQuestion[] }) {
  const page = QUESTION_PAGES[kind];
  // The letter always marks its required fields; the application only when some question may be left blank.
  const marked = kind === "pel-questions" || !allRequired(preview);
  return (
    <section aria-labelledby="questions-preview-heading" className="panel flex flex-col gap-5">
      <h2 id="questions-preview-heading" className="text-2xl">
        Preview: not saved yet
      </h2>
      <p className="text-dust">{`The questions as ${page.form.name} will ask them. Nothing typed here is sent.`}</p>
      {kind === "pel-questions" && allRequired(preview) ? (
        <RequiredNote>
          Every field is required, each marked with an asterisk <Asterisk />.
        </RequiredNote>
      ) : marked ? (
        <RequiredNote />
      ) : null}
      <QuestionFields
        questions={preview}
        rows={page.rows}
        maxLength={page.max}
        values={{}}
        errors={{}}
        markRequired={marked}
      />
    </section>
  );
}

/** The outcome of the last press, above the form. */
export function QuestionsNotice({ answer }: { answer?: QuestionsAnswer }) {
  if (answer?.ok) return <Alert kind="success">{answer.ok}</Alert>;
  if (answer?.message) return <Alert kind="error">{answer.message}</Alert>;
  return null;
}
