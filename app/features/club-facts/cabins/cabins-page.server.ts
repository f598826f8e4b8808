import { data } from "react-router";
import { CABIN_MESSAGES, CABINS_MAX, CabinSchema, NO_CABIN_NAME, type ClubCabin } from "./cabins.facts";
import { currentFacts, historyOf, saveFacts } from "../club-facts.server";
import { inOrder, placeOf, rowsFrom, slugFor, type Placed } from "../list-rows";
import { restoreVersion } from "../restore.server";
import type { FieldErrors, FormValues } from "~/web/forms/kernel";

/**
 * The managers' cabins page (routes/staff/club/cabins.tsx): the cabins as one form, a row a
 * cabin (`id-N`, `name-N`, `position-N`, `retired-N`) and a blank row to add one, so it works as
 * a plain form post; no preview, it is a list of names; the history. A cabin is retired, never
 * removed: attendance records keep its name.
 */

export type CabinsAnswer = { ok?: string; message?: string; errors?: FieldErrors; rows?: CabinRow[] };

/** One row of the form, as typed. */
export type CabinRow = { id: string; name: string; position: string; retired: boolean };

const ID = /^[a-z0-9-]{1,60}$/;

export async function loadCabinsPage() {
  const [{ version, content }, history] = await Promise.all([currentFacts("cabins"), historyOf("cabins")]);
  return {
    version,
    rows: content.map((cabin, index): CabinRow => ({ ...cabin, position: String(index + 1) })),
    history,
  };
}

function rowsOf(fields: FormValues): CabinRow[] {
  return rowsFrom(fields, CABINS_MAX + 1, (n) => ({
    id: fields[`id-${n}`] ?? "",
    name: fields[`name-${n}`] ?? "",
    position: fields[`position-${n}`] ?? String(n + 1),
    retired: fields[`retired-${n}`] === "on",
  }));
}

/** The list the rows make, in the order their places give, or what was wrong with which row. */
export function cabinsOf(rows: CabinRow[]): { cabins: ClubCabin[] } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const kept: Placed<ClubCabin>[] = [];
  const taken = new Set(rows.map((row) => row.id).filter((id) => ID.test(id)));
  const ids = new Set<string>();
  const names = new Set<string>();
  rows.forEach((row, n) => {
    // A blank new row is not a cabin.
    if (!row.id && !row.name.trim()) return;
    // A cabin keeps its id when renamed; a new one (or a row whose id was tampered with) gets one from its name.
    const id = ID.test(row.id) && !ids.has(row.id) ? row.id : slugFor(row.name, taken, "cabin");
    const parsed = CabinSchema.safeParse({ id, name: row.name, retired: row.retired });
    if (!parsed.success) {
      errors[`name-${n}`] = parsed.error.issues[0]?.message ?? CABIN_MESSAGES.name;
      return;
    }
    const name = parsed.data.name.toLowerCase();
    if (name === NO_CABIN_NAME.toLowerCase()) {
      errors[`name-${n}`] = CABIN_MESSAGES.reserved;
      return;
    }
    // Two cabins of one name: the message goes beside the second.
    if (names.has(name)) {
      errors[`name-${n}`] = CABIN_MESSAGES.taken;
      return;
    }
    names.add(name);
    ids.add(id);
    kept.push({ value: parsed.data, position: placeOf(row.position, n), n });
  });
  if (kept.length > CABINS_MAX) errors.form = CABIN_MESSAGES.tooMany;
  if (Object.keys(errors).length > 0) return { errors };
  return { cabins: inOrder(kept) };
}

/** The rows shown again after a refusal: the blank rows at the end are left to the form's own blank row. */
function withoutBlankEnd(rows: CabinRow[]): CabinRow[] {
  let end = rows.length;
  while (end > 0 && !rows[end - 1]!.id && !rows[end - 1]!.name.trim()) end--;
  return rows.slice(0, end);
}

const refused = (rows: CabinRow[], errors: FieldErrors) =>
  data<CabinsAnswer>(
    {
      message: errors.form ?? "Some cabins need a change: see the marked fields.",
      errors,
      rows: withoutBlankEnd(rows),
    },
    { status: 400 },
  );

/** "Save the cabins": a new version, unless another manager saved one since this form was opened. */
export async function saveCabins(fields: FormValues, actor: { id: string }) {
  const rows = rowsOf(fields);
  const list = cabinsOf(rows);
  if ("errors" in list) return refused(rows, list.errors);
  const outcome = await saveFacts("cabins", list.cabins, actor, Number(fields.version));
  if (outcome.ok) return data<CabinsAnswer>({ ok: `Saved: the cabins are now version ${outcome.version}.` });
  if (outcome.reason === "changed-meanwhile") return data<CabinsAnswer>({ message: outcome.message }, { status: 409 });
  return refused(rows, { form: "The cabins could not be saved as they are." });
}

/** "Bring back": an earlier version saved again as the newest. */
export function restoreCabins(fields: FormValues, actor: { id: string }) {
  return restoreVersion<CabinsAnswer>("cabins", fields, actor);
}
