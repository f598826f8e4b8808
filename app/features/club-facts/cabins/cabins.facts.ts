import { z } from "zod";
import { STARTING_CABINS } from "~/game/cabins";

/** The cabins (and the camping area) players are given at an event, as the club keeps them (kind "cabins"). */

export const CABINS_MAX = 100;

export const CABIN_MESSAGES = {
  name: "Name the cabin, up to 60 characters.",
  taken: "Another cabin has this name: give each its own.",
  tooMany: `The list holds at most ${CABINS_MAX} cabins.`,
  reserved: "“Not assigned” is how a record without a cabin reads: give the cabin another name.",
} as const;

/** What the site shows where a record has no cabin (attendance, its CSV, the event-day sheet): no cabin's name. */
export const NO_CABIN_NAME = "Not assigned";

/**
 * One cabin. Attendance records keep the cabin's name as it was when they were made, so renaming
 * or retiring one leaves past events as they were; a retired cabin is no longer offered.
 */
export const CabinSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,60}$/),
  name: z.string().trim().min(1, CABIN_MESSAGES.name).max(60, CABIN_MESSAGES.name),
  retired: z.boolean(),
});
export type ClubCabin = z.infer<typeof CabinSchema>;

export const CabinsSchema = z
  .array(CabinSchema)
  .max(CABINS_MAX, CABIN_MESSAGES.tooMany)
  .refine((cabins) => new Set(cabins.map((c) => c.name.toLowerCase())).size === cabins.length, CABIN_MESSAGES.taken);

/** A cabin's id from its name: "Dragon's Hoard" → "dragon-s-hoard". */
export function cabinIdFor(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60) || "cabin"
  );
}

/** Today's built-in cabins, in their order. */
export function startingCabins(): ClubCabin[] {
  return STARTING_CABINS.map((name) => ({ id: cabinIdFor(name), name, retired: false }));
}
