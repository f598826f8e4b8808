import { eq, or } from "drizzle-orm";
import { BACKSTORY_MAX, CHARACTER_NAME_MAX } from "~/features/members/character.limits";
import { characters, profiles } from "~/platform/db/schema";
import { eachRow, saveVersioned, type ImportContext } from "./context.server";
import type { CsvTable } from "./csv.server";
import { referencesOf } from "./owners.server";
import {
  jobFitsFaction,
  limitedText,
  matchFaction,
  matchJob,
  parseTimestamp,
  requiredUuid,
  shown,
  Skip,
} from "./values.server";

/**
 * Imports the characters (one per member), their faction and job matched to the game's
 * ignoring case and punctuation. A character changed on this site since is kept. Without
 * timestamps in the export, a character counts as old as its member's account.
 */
export async function importCharacters(ctx: ImportContext, csv: CsvTable): Promise<void> {
  const refs = await referencesOf(ctx, csv);
  await eachRow(ctx, "characters", csv, async (row) => {
    const id = requiredUuid(row.cells.id ?? null, "id");
    const userId = refs.member(row);
    const characterName = limitedText(row.cells.character_name?.trim() ?? null, "character_name", CHARACTER_NAME_MAX);
    if (!characterName) throw new Skip("no character_name");
    const backstory = limitedText(row.cells.backstory ?? null, "backstory", BACKSTORY_MAX);
    const faction = matchFaction(row.cells.faction ?? null);
    if (!faction) throw new Skip("unknown faction", shown(row.cells.faction ?? null));
    const job = matchJob(row.cells.job ?? null);
    if (!job) throw new Skip("unknown job", shown(row.cells.job ?? null));
    if (!jobFitsFaction(faction, job))
      throw new Skip("job not open to the faction", `${shown(job)} for ${shown(faction)}`);
    const [owner] = await ctx.tx
      .select({ createdAt: profiles.createdAt })
      .from(profiles)
      .where(eq(profiles.id, userId));
    const createdAt = parseTimestamp(row.cells.created_at ?? null) ?? owner!.createdAt;
    const stamp = parseTimestamp(row.cells.updated_at ?? null) ?? createdAt;
    const values = { userId, characterName, backstory, faction, job, updatedAt: stamp };
    const found = await ctx.tx
      .select({ id: characters.id, userId: characters.userId, stamp: characters.updatedAt })
      .from(characters)
      .where(or(eq(characters.id, id), eq(characters.userId, userId)));
    if (found.some((other) => other.id === id && other.userId !== userId))
      throw new Skip("the id belongs to another member's character");
    const existing = found.find((other) => other.userId === userId);
    return saveVersioned(existing, stamp, {
      insert: () => ctx.tx.insert(characters).values({ id, createdAt, ...values }),
      update: () => ctx.tx.update(characters).set(values).where(eq(characters.id, existing!.id)),
    });
  });
}
