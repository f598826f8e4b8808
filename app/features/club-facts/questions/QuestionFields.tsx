import { TextAreaField } from "~/components/ui/TextAreaField";
import type { AskedQuestion } from "./questions.facts";
import type { WrittenAnswer } from "~/platform/db/schema";

/**
 * A form's answers to the club's questions (the application, the post-event letter), a text area
 * each, named by the question's key, with its hint; a required one is `required` (and, asked,
 * marked so beside its label), an optional one may be left blank.
 */
export function QuestionFields({
  questions,
  rows,
  maxLength,
  values,
  errors,
  markRequired,
}: {
  questions: readonly AskedQuestion[];
  rows: number;
  maxLength: number;
  values: Record<string, string | undefined>;
  errors: Record<string, string | undefined>;
  markRequired?: boolean;
}) {
  return (
    <>
      {questions.map((question) => (
        <TextAreaField
          key={question.key}
          label={question.label}
          hint={question.hint || undefined}
          name={question.key}
          rows={rows}
          maxLength={maxLength}
          required={question.required}
          markRequired={markRequired}
          defaultValue={values[question.key]}
          error={errors[question.key]}
        />
      ))}
    </>
  );
}

/**
 * A letter's or an application's answers as written: each under the question's wording as the
 * member was asked it, whatever the club asks now. Rows of a `<dl>` the caller holds.
 */
export function WrittenAnswerRows({ answers }: { answers: readonly WrittenAnswer[] }) {
  return (
    <>
      {answers.map((written, n) => (
        <div key={`${written.key}-${n}`}>
          <dt className="font-bold text-brass">{written.question}</dt>
          <dd className="mt-1 break-words whitespace-pre-wrap">
            {written.answer || <span className="text-dust italic">Left blank</span>}
          </dd>
        </div>
      ))}
    </>
  );
}
