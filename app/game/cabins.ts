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
export type Cabin = (typeof CABINS)[number];

export function isCabin(value: string): value is Cabin {
  return (CABINS as readonly string[]).includes(value);
}
