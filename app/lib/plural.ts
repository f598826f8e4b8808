// Built once: constructing Intl objects costs far more than using them.
const PLURAL = new Intl.PluralRules("en-US");
const NUMBER = new Intl.NumberFormat("en-US");

/**
 * A count with its noun in the right form: "1 entry", "11 entries", "1,321 letters".
 * `other` defaults to `one` plus "s"; give it whenever English does not simply add an s
 * ("entry" / "entries"), which is how "11 entrys" came about.
 */
export function countOf(n: number, one: string, other = `${one}s`): string {
  return `${NUMBER.format(n)} ${nounFor(n, one, other)}`;
}

/** The noun alone, in the form `n` takes: "entry" for 1, "entries" for 0 or 2. */
export function nounFor(n: number, one: string, other = `${one}s`): string {
  return PLURAL.select(n) === "one" ? one : other;
}
