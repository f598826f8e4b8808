/** The cabins (and the camping area) a player can be assigned at an event. */
export const CABINS = [
  "Dragon's Hoard",
  "Arctic Fox",
  "Weasel Haunt",
  "Wisdom Owls",
  "Clash Stags",
  "Watch Nightingales",
  "Watchtower",
  "Camping",
] as const;
/** A cabin's name; the club's list changes, so any name a record holds is one. */
export type Cabin = string;

export function isCabin(value: string): value is Cabin {
  return (CABINS as readonly string[]).includes(value);
}
