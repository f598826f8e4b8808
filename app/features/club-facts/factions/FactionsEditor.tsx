import { useId } from "react";
import { PlaceInOrder, TickBox } from "../ListRowControls";
import { Form } from "react-router";
import { Field, FieldError, inputClass } from "~/components/ui/Field";
import { SubmitButton } from "~/components/ui/SubmitButton";
import { factionChoices, type FactionRow, type FactionRows, type JobRow } from "./factions-rows";
import type { FactionsAnswer } from "./factions-page.server";
import type { FieldErrors } from "~/web/forms/kernel";

/**
 * The factions and the jobs as one form: a fieldset an entry, a blank one after each list to add
 * one. The jobs' "Open to" names the factions as they were saved, so a faction renamed in the
 * same form takes its jobs with it.
 */
export function FactionsForm({
  rows,
  version,
  answer,
  busy,
}: {
  rows: FactionRows;
  version: number;
  answer?: FactionsAnswer;
  busy: boolean;
}) {
  const factions: FactionRow[] = [
    ...rows.factions,
    { was: "", name: "", position: String(rows.factions.length + 1), retired: false },
  ];
  const jobs: JobRow[] = [
    ...rows.jobs,
    { was: "", name: "", faction: "", position: String(rows.jobs.length + 1), retired: false },
  ];
  const choices = factionChoices(rows.factions);
  const errors = answer?.errors ?? {};
  return (
    <Form method="post" noValidate className="flex flex-col gap-4" aria-labelledby="factions-form-heading">
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="faction-count" value={factions.length} />
      <input type="hidden" name="job-count" value={jobs.length} />
      <h2 id="factions-form-heading" className="text-2xl">
        Factions
      </h2>
      <p className="text-dust">
        Rename a faction (its jobs follow), give it another place in the order, or tick “Retired” to stop offering it.
        Characters keep the faction and job they were saved with. The last row adds a faction. Nothing changes on the
        site until you save; every saved version stays in the history below.
      </p>
      {factions.map((row, n) => (
        <fieldset key={`${row.was}-${n}`} className="panel flex flex-wrap items-end gap-4">
          <legend className="px-1 font-bold text-brass">
            {n === rows.factions.length ? "Add a faction" : `Faction ${n + 1}${row.retired ? " (retired)" : ""}`}
          </legend>
          <input type="hidden" name={`faction-was-${n}`} value={row.was} />
          <NameOrderRetired prefix="faction" row={row} n={n} isNew={n === rows.factions.length} errors={errors} />
        </fieldset>
      ))}
      <h2 className="mt-4 text-2xl">Jobs</h2>
      <p className="text-dust">
        A job is open to every faction, or to one faction only. The last row adds a job; a faction added above can be
        chosen for a job once it is saved.
      </p>
      {jobs.map((row, n) => (
        <fieldset key={`${row.was}-${n}`} className="panel flex flex-wrap items-end gap-4">
          <legend className="px-1 font-bold text-brass">
            {n === rows.jobs.length ? "Add a job" : `Job ${n + 1}${row.retired ? " (retired)" : ""}`}
          </legend>
          <input type="hidden" name={`job-was-${n}`} value={row.was} />
          <OpenTo row={row} n={n} choices={choices} error={errors[`job-faction-${n}`]} />
          <NameOrderRetired prefix="job" row={row} n={n} isNew={n === rows.jobs.length} errors={errors} />
        </fieldset>
      ))}
      <div className="flex flex-wrap gap-3">
        <SubmitButton name="intent" value="save" className="btn btn-primary" busy={busy}>
          Save factions and jobs
        </SubmitButton>
      </div>
    </Form>
  );
}

function NameOrderRetired({
  prefix,
  row,
  n,
  isNew,
  errors,
}: {
  prefix: "faction" | "job";
  row: FactionRow | JobRow;
  n: number;
  isNew: boolean;
  errors: FieldErrors;
}) {
  return (
    <>
      <Field
        label="Name"
        name={`${prefix}-name-${n}`}
        maxLength={60}
        defaultValue={row.name}
        error={errors[`${prefix}-name-${n}`]}
        className="min-w-0 flex-1 basis-56"
      />
      <PlaceInOrder name={`${prefix}-position-${n}`} position={row.position} />
      {isNew ? null : (
        <TickBox name={`${prefix}-retired-${n}`} checked={row.retired}>
          Retired
        </TickBox>
      )}
    </>
  );
}

/** Which factions may take the job: every one, or the one chosen. */
function OpenTo({
  row,
  n,
  choices,
  error,
}: {
  row: JobRow;
  n: number;
  choices: { value: string; label: string }[];
  error?: string;
}) {
  const id = useId();
  // A faction the form does not list (a value sent from elsewhere) is kept, to be marked.
  const shown =
    row.faction && !choices.some((c) => c.value === row.faction)
      ? [...choices, { value: row.faction, label: row.faction }]
      : choices;
  return (
    <div className="flex min-w-0 basis-full flex-col gap-1">
      <label htmlFor={id} className="font-bold text-parchment">
        Open to
      </label>
      <select
        id={id}
        name={`job-faction-${n}`}
        defaultValue={row.faction}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`${inputClass} min-h-11`}
      >
        <option value="">Every faction</option>
        {shown.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      {error ? <FieldError id={`${id}-error`}>{error}</FieldError> : null}
    </div>
  );
}
