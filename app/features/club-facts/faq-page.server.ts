import { data } from "react-router";
import { restoreVersion } from "./restore.server";
import { CLUB_FACT_MESSAGES, FAQ_ENTRIES_MAX, FaqEntrySchema, type FaqEntry } from "./club-facts.form";
import { currentFacts, historyOf, saveFacts } from "./club-facts.server";
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

function rowsOf(fields: FormValues): FaqRow[] {
  const count = Math.min(Number(fields.count) || 0, FAQ_ENTRIES_MAX + 1);
  return Array.from({ length: count }, (_, n) => ({
    id: fields[`id-${n}`] ?? "",
    question: fields[`question-${n}`] ?? "",
    answer: fields[`answer-${n}`] ?? "",
    position: fields[`position-${n}`] ?? String(n + 1),
    remove: fields[`remove-${n}`] === "on",
  }));
}

/** A new question's id, from its words: `/#faq-where-do-i-park`. */
function idFor(question: string, taken: Set<string>): string {
  const base =
    question
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 50) || "question";
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** The list the rows make, in the order their positions give, or what was wrong with which row. */
function listOf(rows: FaqRow[]): { entries: FaqEntry[] } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const kept: { entry: FaqEntry; position: number; n: number }[] = [];
  const taken = new Set(rows.map((row) => row.id).filter(Boolean));
  rows.forEach((row, n) => {
    // A blank new row is not a question; a removed one is left out.
    if (row.remove || (!row.id && !row.question.trim() && !row.answer.trim())) return;
    const parsed = FaqEntrySchema.safeParse({ ...row, id: row.id || idFor(row.question, taken) });
    if (!parsed.success) {
      for (const [field, message] of Object.entries(fieldErrors(parsed.error))) errors[`${field}-${n}`] = message;
      return;
    }
    const position = Number(row.position);
    kept.push({ entry: parsed.data, position: Number.isFinite(position) ? position : n + 1, n });
  });
  if (kept.length > FAQ_ENTRIES_MAX) errors.form = CLUB_FACT_MESSAGES.tooMany;
  if (Object.keys(errors).length > 0) return { errors };
  // A question given the place another holds goes before it: moved to 1, it is first.
  const moved = (row: { position: number; n: number }) => (row.position === row.n + 1 ? 1 : 0);
  kept.sort((a, b) => a.position - b.position || moved(a) - moved(b) || a.n - b.n);
  return { entries: kept.map(({ entry }) => entry) };
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
