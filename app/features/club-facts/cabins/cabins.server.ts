import { currentFacts } from "../club-facts.server";

/**
 * The club's cabins where they are used: the attendance tool offers and accepts the cabins not
 * retired, in their order; the event-day sheet groups by them. A record keeps the cabin's name as
 * it was, so a name no longer in the list (retired, or renamed since) is still shown as written.
 */

/** The names of the cabins a player can be given now, in the club's order. */
export async function cabinsOffered(): Promise<string[]> {
  const { content } = await currentFacts("cabins");
  return content.filter((cabin) => !cabin.retired).map((cabin) => cabin.name);
}

/** Why a cabin cannot be given: not one of the club's, or retired. Null when it can. */
export async function cabinProblem(name: string): Promise<"unknown" | "retired" | null> {
  const { content } = await currentFacts("cabins");
  const cabin = content.find((entry) => entry.name === name);
  return !cabin ? "unknown" : cabin.retired ? "retired" : null;
}

/**
 * Groups named by cabin in the club's order: the cabins offered now first, as the list orders
 * them; then any other name a record holds (a cabin retired or renamed since), alphabetically.
 */
export async function inCabinOrder<G extends { cabin: string }>(groups: readonly G[]): Promise<G[]> {
  const order = new Map((await cabinsOffered()).map((name, index) => [name, index]));
  const rank = (cabin: string) => order.get(cabin) ?? order.size;
  return [...groups].sort((a, b) => rank(a.cabin) - rank(b.cabin) || a.cabin.localeCompare(b.cabin, "en"));
}
