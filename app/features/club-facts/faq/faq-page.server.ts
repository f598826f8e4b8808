import { data } from "react-router";
import { inOrder, placeOf, rowsFrom, slugFor, type Placed } from "../list-rows";
import { restoreVersion } from "../restore.server";
import { CLUB_FACT_MESSAGES, FAQ_ENTRIES_MAX, FaqEntrySchema, type FaqEntry } from "../club-facts.form";
import { currentFacts, historyOf, saveFacts } from "../club-facts.server";
import { formattedTextHtml } from "~/lib/formatted-text.server";
import { fieldErrors, type FieldErrors, type FormValues } from "~/web/forms/kernel";

/**
 * The managers' FAQ page (routes/staff/club/faq.tsx): the questions as one form, a row a question
 * (`id-N`, `question-N`, `answer-N`, `position-N`, `remove-N`) and a blank row to add one, so it
 * works as a plain form post; a preview of the answers as members read them; the history.
 */

/** What the page answers to a press: the rows sent back with what was wrong, a preview, or the outcome. */
export type FaqAnswer = {
  ok?: string;
  message?: string;
  errors?: FieldErrors;
  rows?: FaqRow[];
  preview?: { question: string; html: string }[];
};

/** One row of the form, as typed. */
export type FaqRow = { id: string; question: string; answer: string; position: string; remove: boolean };

/** The page's data: the FAQ now (its version, for the save to check), its history. */
export async function loadFaqPage() {
  const [{ version, content }, history] = await Promise.all([currentFacts("faq"), historyOf("faq")]);
  return {
    version,
    rows: content.map((entry, index) => ({ ...entry, position: String(index + 1), remove: false })),
    history,
  };
}

/** The rows typed, without the blank one for a new question: the form adds its own. */
function rowsOf(fields: FormValues): FaqRow[] {
  return rowsFrom(fields, FAQ_ENTRIES_MAX + 1, (n) => ({
    id: fields[`id-${n}`] ?? "",
    question: fields[`question-${n}`] ?? "",
    answer: fields[`answer-${n}`] ?? "",
    position: fields[`position-${n}`] ?? String(n + 1),
    remove: fields[`remove-${n}`] === "on",
  })).filter((row) => row.id || row.question.trim() || row.answer.trim());
}

/** The list the rows make, in the order their positions give, or what was wrong with which row. */
function listOf(rows: FaqRow[]): { entries: FaqEntry[] } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const kept: Placed<FaqEntry>[] = [];
  const taken = new Set(rows.map((row) => row.id).filter(Boolean));
  rows.forEach((row, n) => {
    // A blank new row is not a question; a removed one is left out.
    if (row.remove || (!row.id && !row.question.trim() && !row.answer.trim())) return;
    const parsed = FaqEntrySchema.safeParse({ ...row, id: row.id || slugFor(row.question, taken, "question") });
    if (!parsed.success) {
      for (const [field, message] of Object.entries(fieldErrors(parsed.error))) errors[`${field}-${n}`] = message;
      return;
    }
    kept.push({ value: parsed.data, position: placeOf(row.position, n), n });
  });
  if (kept.length > FAQ_ENTRIES_MAX) errors.form = CLUB_FACT_MESSAGES.tooMany;
  if (Object.keys(errors).length > 0) return { errors };
  return { entries: inOrder(kept) };
}

const refused = (rows: FaqRow[], errors: FieldErrors) =>
  data<FaqAnswer>(
    { message: errors.form ?? "Some questions need a change: see the marked fields.", errors, rows },
    { status: 400 },
  );

/** "Preview": the answers as members will read them, the form kept as typed. */
export function previewFaq(fields: FormValues) {
  const rows = rowsOf(fields);
  const list = listOf(rows);
  if ("errors" in list) return refused(rows, list.errors);
  return data<FaqAnswer>({
    rows,
    preview: list.entries.map((entry) => ({ question: entry.question, html: formattedTextHtml(entry.answer) })),
  });
}

/** "Save the FAQ": a new version, unless another manager saved one since this form was opened. */
export async function saveFaq(fields: FormValues, actor: { id: string }) {
  const rows = rowsOf(fields);
  const list = listOf(rows);
  if ("errors" in list) return refused(rows, list.errors);
  const outcome = await saveFacts("faq", list.entries, actor, Number(fields.version));
  if (outcome.ok) return data<FaqAnswer>({ ok: `Saved: the FAQ is now version ${outcome.version}.` });
  if (outcome.reason === "changed-meanwhile") return data<FaqAnswer>({ message: outcome.message }, { status: 409 });
  return refused(rows, { form: "The FAQ could not be saved as it is." });
}

/** "Bring back": an earlier version saved again as the newest. */
export function restoreFaq(fields: FormValues, actor: { id: string }) {
  return restoreVersion<FaqAnswer>("faq", fields, actor);
}
