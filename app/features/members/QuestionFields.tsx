import { TextAreaField } from "~/components/ui/TextAreaField";

type Question = { key: string; label: string; hint?: string };

/** A questionnaire's free-text answers (application, post-event letter), each a required text area, marked so when asked. */
export function QuestionFields({
  questions,
  rows,
  maxLength,
  values,
  errors,
  markRequired,
}: {
  questions: readonly Question[];
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
          hint={question.hint}
          name={question.key}
          rows={rows}
          maxLength={maxLength}
          required
          markRequired={markRequired}
          defaultValue={values[question.key]}
          error={errors[question.key]}
        />
      ))}
    </>
  );
}
