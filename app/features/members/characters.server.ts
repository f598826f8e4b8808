import { eq, sql } from "drizzle-orm";
import type { CharacterInput } from "./character.form";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import type { SessionUser } from "~/lib/navigation";
import { database } from "~/platform/db/client.server";
import { characters } from "~/platform/db/schema";
import { queueDiscordPost } from "~/platform/discord/discord.server";

export type Character = typeof characters.$inferSelect;

export async function getCharacter(userId: string): Promise<Character | undefined> {
  const db = await database();
  const [row] = await db.select().from(characters).where(eq(characters.userId, userId));
  return row;
}

/**
 * The character form's page: the member's character, the club's factions and jobs now, and the
 * pair the character was saved with (which stays choosable when the list retires it).
 */
export async function characterChoices(userId: string) {
  const [{ content: list }, character] = await Promise.all([currentFacts("factions"), getCharacter(userId)]);
  return { character, list, saved: character ? { faction: character.faction, job: character.job } : null };
}

/** Creates the member's one character, or updates it; the notice says which. */
export async function saveCharacter(user: SessionUser, input: CharacterInput): Promise<{ created: boolean }> {
  const db = await database();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(characters)
      .values({ ...input, userId: user.id })
      .onConflictDoUpdate({
        target: characters.userId,
        set: {
          characterName: input.characterName,
          faction: input.faction,
          job: input.job,
          backstory: input.backstory,
          updatedAt: sql`now()`,
        },
      })
      // xmax is 0 only for a freshly inserted row: PostgreSQL's way to tell an insert from an update.
      .returning({ created: sql<boolean>`(xmax = 0)` });
    const created = Boolean(row?.created);
    await queueDiscordPost(
      tx,
      `🤠 ${created ? "A new face in Hopewell" : "A settler's story has changed"}: **${input.characterName}**, ${input.job} of the ${input.faction}.\n\n${input.backstory}`,
    );
    return { created };
  });
}

/** Rewrites the backstory of the member's own character; false when they have none. */
export async function updateBackstory(user: SessionUser, backstory: string): Promise<boolean> {
  const db = await database();
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(characters)
      .set({ backstory, updatedAt: sql`now()` })
      .where(eq(characters.userId, user.id))
      .returning({ characterName: characters.characterName });
    if (updated.length === 0) return false;
    await queueDiscordPost(tx, `📖 ${updated[0]!.characterName} has a new chapter in their story.\n\n${backstory}`);
    return true;
  });
}
