// Built once: constructing Intl objects costs far more than using them.
const PLURAL = new Intl.PluralRules("en-US");
const NUMBER = new Intl.NumberFormat("en-US");

/**
 * A count with its noun in the right form: "1 entry", "11 entries", "1,321 letters".
 * `other` defaults to `one` plus "s"; give it whenever English does not simply add an s
 * ("entry" / "entries"), which is how "11 entrys" came about.
 */
export function countOf(n: number, one: string, other = `${one}s`): string {
  // Small whole numbers are written as they are; Intl takes microseconds a call, and lists call it per row.
  const written = Number.isInteger(n) && n > -1000 && n < 1000 ? String(n) : NUMBER.format(n);
  return `${written} ${nounFor(n, one, other)}`;
}

/** The noun alone, in the form `n` takes: "entry" for 1, "entries" for 0 or 2. */
export function nounFor(n: number, one: string, other = `${one}s`): string {
  // English's rule for whole numbers: only 1 is singular (Intl.PluralRules says the same, slower).
  if (Number.isInteger(n)) return n === 1 || n === -1 ? one : other;
  return PLURAL.select(n) === "one" ? one : other;
}
