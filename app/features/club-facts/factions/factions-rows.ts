import {
  FACTION_MESSAGES,
  FACTIONS_MAX,
  FactionSchema,
  JOBS_MAX,
  JobSchema,
  type ClubFactions,
} from "./factions.facts";
import { inOrder, placeOf, rowsFrom, type Placed } from "../list-rows";
import type { FieldErrors, FormValues } from "~/web/forms/kernel";

/**
 * The factions page's form read back into a list (routes/staff/club/factions.tsx). A faction row
 * is `faction-was-N` (its name as saved, blank for a new one), `faction-name-N`,
 * `faction-position-N`, `faction-retired-N`; a job row is `job-was-N`, `job-name-N`,
 * `job-faction-N` (blank: every faction; else a faction as the form named it, its saved name),
 * `job-position-N`, `job-retired-N`. A faction renamed in the same form is renamed on the jobs
 * open to it, so no job is left open to a name the list no longer holds.
 */

export type FactionRow = { was: string; name: string; position: string; retired: boolean };
export type JobRow = { was: string; name: string; faction: string; position: string; retired: boolean };
export type FactionRows = { factions: FactionRow[]; jobs: JobRow[] };

/** The rows of the list as the page shows them. */
export function rowsOfList(list: ClubFactions): FactionRows {
  return {
    factions: list.factions.map((f, n) => ({ was: f.name, name: f.name, position: String(n + 1), retired: f.retired })),
    jobs: list.jobs.map((job, n) => ({
      was: job.name,
      name: job.name,
      faction: job.faction ?? "",
      position: String(n + 1),
      retired: job.retired,
    })),
  };
}

/** The rows the form sent. */
export function rowsOfForm(fields: FormValues): FactionRows {
  const field = (name: string) => fields[name] ?? "";
  return {
    factions: rowsFrom({ count: fields["faction-count"] }, FACTIONS_MAX + 1, (n) => ({
      was: field(`faction-was-${n}`),
      name: field(`faction-name-${n}`),
      position: fields[`faction-position-${n}`] ?? String(n + 1),
      retired: fields[`faction-retired-${n}`] === "on",
    })),
    jobs: rowsFrom({ count: fields["job-count"] }, JOBS_MAX + 1, (n) => ({
      was: field(`job-was-${n}`),
      name: field(`job-name-${n}`),
      faction: field(`job-faction-${n}`),
      position: fields[`job-position-${n}`] ?? String(n + 1),
      retired: fields[`job-retired-${n}`] === "on",
    })),
  };
}

/** One of the form's choices for "Open to": a faction as the form names it, and as it is now typed. */
export function factionChoices(rows: FactionRow[]): { value: string; label: string }[] {
  return rows
    .filter((row) => row.was || row.name.trim())
    .map((row) => ({
      value: row.was || row.name.trim(),
      label: `${row.name.trim() || row.was}${row.retired ? " (retired)" : ""}`,
    }));
}

/** Each row's entry, the message beside the second of two of one name. */
function entriesOf<R extends { was: string; name: string; position: string }, T extends { name: string }>(
  rows: R[],
  prefix: string,
  taken: string,
  parse: (row: R, n: number) => { ok: true; value: T } | { ok: false; field: string; message: string },
  errors: FieldErrors,
): { row: R; value: T; placed: Placed<T> }[] {
  const names = new Set<string>();
  const kept: { row: R; value: T; placed: Placed<T> }[] = [];
  rows.forEach((row, n) => {
    // A blank new row adds nothing.
    if (!row.was && !row.name.trim()) return;
    const parsed = parse(row, n);
    if (!parsed.ok) {
      errors[`${prefix}-${parsed.field}-${n}`] ??= parsed.message;
      return;
    }
    const name = parsed.value.name.toLowerCase();
    if (names.has(name)) {
      errors[`${prefix}-name-${n}`] = taken;
      return;
    }
    names.add(name);
    kept.push({ row, value: parsed.value, placed: { value: parsed.value, position: placeOf(row.position, n), n } });
  });
  return kept;
}

/** The list the rows make, in the order their places give, or what was wrong with which row. */
export function listOfRows(rows: FactionRows): { list: ClubFactions } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const factions = entriesOf(
    rows.factions,
    "faction",
    FACTION_MESSAGES.factionTaken,
    (row) => {
      const parsed = FactionSchema.safeParse({ name: row.name, retired: row.retired });
      return parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, field: "name", message: parsed.error.issues[0]?.message ?? FACTION_MESSAGES.faction };
    },
    errors,
  );
  // What the "Open to" choices name (a faction's saved name, or a new one's) and what it is called now.
  const renamed = new Map<string, string>();
  for (const { row, value } of factions) if (row.was && !renamed.has(row.was)) renamed.set(row.was, value.name);
  for (const { row, value } of factions) if (!row.was && !renamed.has(value.name)) renamed.set(value.name, value.name);
  // A faction row refused above is marked already: its jobs are not marked for it too.
  for (const row of rows.factions) if (row.was && !renamed.has(row.was)) renamed.set(row.was, row.was);
  const jobs = entriesOf(
    rows.jobs,
    "job",
    FACTION_MESSAGES.jobTaken,
    (row) => {
      const faction = row.faction === "" ? null : renamed.get(row.faction);
      if (faction === undefined) return { ok: false, field: "faction", message: FACTION_MESSAGES.unknownFaction };
      const parsed = JobSchema.safeParse({ name: row.name, faction, retired: row.retired });
      return parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, field: "name", message: parsed.error.issues[0]?.message ?? FACTION_MESSAGES.job };
    },
    errors,
  );
  if (factions.length > FACTIONS_MAX) errors.form = FACTION_MESSAGES.tooManyFactions;
  if (jobs.length > JOBS_MAX) errors.form = FACTION_MESSAGES.tooManyJobs;
  if (Object.keys(errors).length > 0) return { errors };
  return { list: { factions: inOrder(factions.map((f) => f.placed)), jobs: inOrder(jobs.map((j) => j.placed)) } };
}
