import { ilike, inArray, like, or, sql, type SQL } from "drizzle-orm";
import { characters, letters, memberSearchText, profiles } from "./schema";
import type { Database } from "./client.server";

/**
 * Substring searches, case-insensitive. Each matches one expression that a trigram
 * index covers (see the schema), so a search stays an index lookup however many
 * members and letters the club has.
 */

/** A LIKE pattern that finds `search` anywhere, with LIKE's own wildcards taken literally. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Profiles whose first name, last name or email (or "First Last") contain the term. */
export function memberMatches(term: string): SQL {
  return ilike(memberSearchText(profiles), likePattern(term));
}

/**
 * Members matching by name, email or their character's name. Written as a union of two
 * indexed lookups: an OR across the join could not use either index.
 */
export function memberOrCharacterMatches(db: Database, term: string): SQL {
  const pattern = likePattern(term);
  const byMember = db
    .select({ id: profiles.id })
    .from(profiles)
    .where(ilike(memberSearchText(profiles), pattern));
  const byCharacter = db
    .select({ id: characters.userId })
    .from(characters)
    .where(ilike(characters.characterName, pattern));
  return inArray(profiles.id, byMember.union(byCharacter));
}

/**
 * Letters whose recipient or text contain the term, or whose sender's name or email does.
 * One condition on the letters alone, so the two index lookups are combined in one pass
 * over the letters (a bitmap OR) and a page of matches needs no join before it is cut.
 */
export function letterMatches(db: Database, term: string): SQL {
  const pattern = likePattern(term);
  const senders = db
    .select({ id: profiles.id })
    .from(profiles)
    .where(ilike(memberSearchText(profiles), pattern));
  return or(like(letters.searchText, sql`lower(${pattern})`), sql`${letters.userId} = any(array(${senders}))`)!;
}
