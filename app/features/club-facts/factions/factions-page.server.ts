import { data } from "react-router";
import { currentFacts, historyOf, saveFacts } from "../club-facts.server";
import { restoreVersion } from "../restore.server";
import { listOfRows, rowsOfForm, rowsOfList, type FactionRows } from "./factions-rows";
import type { FieldErrors, FormValues } from "~/web/forms/kernel";

/**
 * The managers' factions and jobs page (routes/staff/club/factions.tsx): both lists as one form
 * (factions-rows.ts), so renaming a faction carries to its jobs in the same save; the history.
 * An entry is retired, never removed: characters keep the names they were saved with.
 */

export type FactionsAnswer = { ok?: string; message?: string; errors?: FieldErrors; rows?: FactionRows };

export async function loadFactionsPage() {
  const [{ version, content }, history] = await Promise.all([currentFacts("factions"), historyOf("factions")]);
  return { version, rows: rowsOfList(content), history };
}

/** The rows shown again after a refusal: the blank rows at the end are left to the form's own blank row. */
function withoutBlankEnd<R extends { was: string; name: string }>(rows: R[]): R[] {
  let end = rows.length;
  while (end > 0 && !rows[end - 1]!.was && !rows[end - 1]!.name.trim()) end--;
  return rows.slice(0, end);
}

const refused = (rows: FactionRows, errors: FieldErrors) =>
  data<FactionsAnswer>(
    {
      message: errors.form ?? "Some factions or jobs need a change: see the marked fields.",
      errors,
      rows: { factions: withoutBlankEnd(rows.factions), jobs: withoutBlankEnd(rows.jobs) },
    },
    { status: 400 },
  );

/** "Save factions and jobs": a new version, unless another manager saved one since this form was opened. */
export async function saveFactions(fields: FormValues, actor: { id: string }) {
  const rows = rowsOfForm(fields);
  const made = listOfRows(rows);
  if ("errors" in made) return refused(rows, made.errors);
  const outcome = await saveFacts("factions", made.list, actor, Number(fields.version));
  if (outcome.ok)
    return data<FactionsAnswer>({ ok: `Saved: the factions and jobs are now version ${outcome.version}.` });
  if (outcome.reason === "changed-meanwhile")
    return data<FactionsAnswer>({ message: outcome.message }, { status: 409 });
  return refused(rows, { form: "The factions and jobs could not be saved as they are." });
}

/** "Bring back": an earlier version saved again as the newest. */
export function restoreFactions(fields: FormValues, actor: { id: string }) {
  return restoreVersion<FactionsAnswer>("factions", fields, actor);
}
