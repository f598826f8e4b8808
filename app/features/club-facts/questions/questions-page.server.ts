import { data } from "react-router";
import { currentFacts, historyOf, saveFacts } from "../club-facts.server";
import { inOrder, placeOf, rowsFrom, slugFor, type Placed } from "../list-rows";
import { restoreVersion } from "../restore.server";
import {
  askedQuestions,
  FORM_FIELD_NAMES,
  QUESTION_MESSAGES,
  QuestionSchema,
  QuestionsSchema,
  QUESTIONS_MAX,
  type AskedQuestion,
  type ClubQuestion,
} from "./questions.facts";
import type { QuestionKind } from "./questions.server";
import { QUESTION_PAGES } from "./question-pages";
import { fieldErrors, type FieldErrors, type FormValues } from "~/web/forms/kernel";

/**
 * The managers' pages for the club's questions (routes/staff/club/questions.tsx, at
 * /tools/club/pel-questions and /tools/club/application-questions), one editor for both kinds: the questions as one form, a row a
 * question (`key-N`, `label-N`, `hint-N`, `required-N`, `retired-N`, `position-N`) and a blank
 * row to add one, so it works as a plain form post; a preview of the form as members will see it;
 * the history. A question's key is made from its first wording and never changes: every letter or
 * application keeps its own copy of the wording it was asked, so rewording one changes nothing
 * already written.
 */

/** One row of the form, as typed. */
export type QuestionRow = {
  key: string;
  label: string;
  hint: string;
  required: boolean;
  retired: boolean;
  position: string;
};

/** What the page answers to a press: the rows sent back with what was wrong, a preview, or the outcome. */
export type QuestionsAnswer = {
  ok?: string;
  message?: string;
  errors?: FieldErrors;
  rows?: QuestionRow[];
  preview?: AskedQuestion[];
};

/** The page's data: the questions now (their version, for the save to check), their history. */
export async function loadQuestionsPage(kind: QuestionKind) {
  const [{ version, content }, history] = await Promise.all([currentFacts(kind), historyOf(kind)]);
  return {
    version,
    rows: content.map((question, index): QuestionRow => ({ ...question, position: String(index + 1) })),
    history,
  };
}

/** The rows the form sent, but for a blank new one: the form sent back adds its own. */
function rowsOf(fields: FormValues): QuestionRow[] {
  const rows = rowsFrom(fields, QUESTIONS_MAX + 1, (n) => ({
    key: fields[`key-${n}`] ?? "",
    label: fields[`label-${n}`] ?? "",
    hint: fields[`hint-${n}`] ?? "",
    required: fields[`required-${n}`] === "on",
    retired: fields[`retired-${n}`] === "on",
    position: fields[`position-${n}`] ?? String(n + 1),
  }));
  return rows.filter((row) => row.key || row.label.trim() || row.hint.trim());
}

/**
 * The list the rows make, in the order their places give, or what was wrong with which row. A
 * row keeps its question's key when the list has that question; any other row is a new question,
 * named from its wording (`known` are the keys the list has, retired ones included). Two rows
 * of one question are refused.
 */
function listOf(rows: QuestionRow[], known: Set<string>): { questions: ClubQuestion[] } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const kept: Placed<ClubQuestion>[] = [];
  const taken = new Set<string>([...known, ...FORM_FIELD_NAMES]);
  const used = new Set<string>();
  rows.forEach((row, n) => {
    // One question in two rows is a form made by hand, not by this page.
    if (used.has(row.key)) errors.form = QUESTION_MESSAGES.sameKey;
    const existing = known.has(row.key) && !used.has(row.key);
    const key = existing ? row.key : slugFor(row.label, taken, "question");
    used.add(key);
    const parsed = QuestionSchema.safeParse({ ...row, key });
    if (!parsed.success) {
      for (const [field, message] of Object.entries(fieldErrors(parsed.error))) errors[`${field}-${n}`] = message;
      return;
    }
    kept.push({ value: parsed.data, position: placeOf(row.position, n), n });
  });
  if (Object.keys(errors).length > 0) return { errors };
  const list = QuestionsSchema.safeParse(inOrder(kept));
  if (!list.success) return { errors: { form: list.error.issues[0]!.message } };
  return { questions: list.data };
}

const refused = (rows: QuestionRow[], errors: FieldErrors) =>
  data<QuestionsAnswer>(
    { message: errors.form ?? "Some questions need a change: see the marked fields.", errors, rows },
    { status: 400 },
  );

async function checked(kind: QuestionKind, fields: FormValues) {
  const rows = rowsOf(fields);
  const { content } = await currentFacts(kind);
  return { rows, list: listOf(rows, new Set(content.map((question) => question.key))) };
}

/** "Preview": the form as members will see it, the editor kept as typed. */
export async function previewQuestions(kind: QuestionKind, fields: FormValues) {
  const { rows, list } = await checked(kind, fields);
  if ("errors" in list) return refused(rows, list.errors);
  return data<QuestionsAnswer>({ rows, preview: askedQuestions(list.questions) });
}

/** "Save the questions": a new version, unless another manager saved one since this form was opened. */
export async function saveQuestions(kind: QuestionKind, fields: FormValues, actor: { id: string }) {
  const { rows, list } = await checked(kind, fields);
  if ("errors" in list) return refused(rows, list.errors);
  const outcome = await saveFacts(kind, list.questions, actor, Number(fields.version));
  if (outcome.ok)
    return data<QuestionsAnswer>({ ok: `Saved: ${QUESTION_PAGES[kind].saved} version ${outcome.version}.` });
  if (outcome.reason === "changed-meanwhile")
    return data<QuestionsAnswer>({ message: outcome.message }, { status: 409 });
  return refused(rows, { form: "The questions could not be saved as they are." });
}

/** "Bring back": an earlier version saved again as the newest. */
export function restoreQuestions(kind: QuestionKind, fields: FormValues, actor: { id: string }) {
  return restoreVersion<QuestionsAnswer>(kind, fields, actor);
}
