import type { ReactNode } from "react";
import { Field } from "~/components/ui/Field";

/** A list row's place among the others, as every one of the club's list editors asks it. */
export function PlaceInOrder({ name, position }: { name: string; position: number | string }) {
  return (
    <Field
      label="Place in the order"
      name={name}
      type="number"
      inputMode="numeric"
      min={1}
      defaultValue={position}
      className="w-40"
    />
  );
}

/** A tick box with its words, 44 px tall: Retired, Required, Remove this question. */
export function TickBox({ name, checked, children }: { name: string; checked: boolean; children: ReactNode }) {
  return (
    <label className="flex min-h-11 items-center gap-2">
      <input type="checkbox" name={name} defaultChecked={checked} className="size-5" />
      {children}
    </label>
  );
}

/**
 * The rows of one of the club's list editors, as the save reads them back: the version the form
 * was opened at and the count of rows as hidden fields, then a fieldset a row, named by its place
 * ("Cabin 2 (retired)"), and last the blank row to add one ("Add a cabin"). `fields` draws a row's
 * own fields inside its fieldset.
 */
export function ListRows<Row extends object>({
  rows,
  blank,
  version,
  noun,
  keyOf,
  isRetired,
  className,
  fields,
}: {
  rows: Row[];
  blank: Row;
  version: number;
  /** What one row is, in lower case: "cabin", "question". */
  noun: string;
  keyOf: (row: Row) => string;
  /** For a list whose rows can be retired: the legend says so. */
  isRetired?: (row: Row) => boolean;
  className: string;
  fields: (row: Row, n: number, isNew: boolean) => ReactNode;
}) {
  const shown = [...rows, blank];
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  return (
    <>
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="count" value={shown.length} />
      {shown.map((row, n) => {
        const isNew = n === rows.length;
        return (
          <fieldset key={`${keyOf(row)}-${n}`} className={className}>
            <legend className="px-1 font-bold text-brass">
              {isNew ? `Add a ${noun}` : `${Noun} ${n + 1}${isRetired?.(row) ? " (retired)" : ""}`}
            </legend>
            {fields(row, n, isNew)}
          </fieldset>
        );
      })}
    </>
  );
}
