import type { FormValues } from "~/web/forms/kernel";

/**
 * What every list editor of the club's facts shares: the list is one plain form, a row an entry
 * (fields named `<name>-N`) and a blank row to add one, with a "Place in the order" number each.
 */

/** The rows the form sent (`count` of them, at most `max`), each read by `read(n)`. */
export function rowsFrom<R>(fields: FormValues, max: number, read: (n: number) => R): R[] {
  const count = Math.min(Number(fields.count) || 0, max);
  return Array.from({ length: count }, (_, n) => read(n));
}

/** A new entry's lasting name, from its words ("Where do I park?" → "where-do-i-park"), unique among `taken`. */
export function slugFor(text: string, taken: Set<string>, fallback: string, separator = "-"): string {
  const base =
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, separator)
      .replace(new RegExp(`^\\${separator}|\\${separator}$`, "g"), "")
      .slice(0, 50) || fallback;
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}${separator}${n}`;
  taken.add(slug);
  return slug;
}

/** An entry kept from row `n`, with the place in the order typed for it. */
export type Placed<T> = { value: T; position: number; n: number };

/** The place typed in a row, or where the row is when none (or nonsense) was typed. */
export function placeOf(typed: string, n: number): number {
  const position = Number(typed);
  return Number.isFinite(position) ? position : n + 1;
}

/** The entries in the order their places give: one moved to a place another holds goes before it. */
export function inOrder<T>(kept: Placed<T>[]): T[] {
  const moved = (row: Placed<T>) => (row.position === row.n + 1 ? 1 : 0);
  return [...kept].sort((a, b) => a.position - b.position || moved(a) - moved(b) || a.n - b.n).map((row) => row.value);
}
