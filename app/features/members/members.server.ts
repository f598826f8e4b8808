import { and, asc, count, eq, inArray, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgSelect } from "drizzle-orm/pg-core";
import { isStaff, rolesWhere } from "~/game/roles";
import { notDeletedAccount } from "~/features/accounts/account-deletion.server";
import { audit } from "~/platform/audit.server";
import { ChangeAwareCache } from "~/platform/db/changes.server";
import { database, type Database } from "~/platform/db/client.server";
import { characters, profiles } from "~/platform/db/schema";
import { memberMatches, memberOrCharacterMatches } from "~/platform/db/search.server";

export const MEMBER_LIST_PAGE_SIZE = 50;

function nameOrEmail(db: Database, search: string) {
  const term = search.trim();
  return term ? memberOrCharacterMatches(db, term) : undefined;
}

/**
 * How many members of a kind match. A member has at most one character, so the join to
 * characters only matters when a search may match a character's name; unjoined the count
 * is a fifth of the cost on the embedded database, and without a search it is kept until
 * a write to the members is announced.
 */
const keptMemberCounts = new ChangeAwareCache<number>({
  name: "member counts",
  tables: ["profiles"],
  maxAgeMs: 60_000,
  maxEntries: 10,
});
async function countMembers(
  db: Database,
  kind: "players" | "cast",
  where: SQL | undefined,
  search: string,
): Promise<number> {
  const query = db.select({ n: count() }).from(profiles);
  if (search.trim())
    return (await query.leftJoin(characters, eq(characters.userId, profiles.id)).where(where))[0]?.n ?? 0;
  return keptMemberCounts.get(kind, async () => (await query.where(where))[0]?.n ?? 0);
}

/**
 * One page of a member list, by first name, searchable by member or character name, with the
 * list's total. `columns` picks what the list shows from profiles joined to characters.
 */
async function memberListPage<Query extends PgSelect>(
  kind: "players" | "cast",
  ofKind: SQL,
  columns: (db: Database) => Query,
  { search = "", page = 0 }: { search?: string; page?: number },
) {
  const db = await database();
  const where = and(ofKind, nameOrEmail(db, search));
  const [rows, total] = await Promise.all([
    columns(db)
      .where(where)
      .orderBy(asc(profiles.firstName), asc(profiles.lastName), asc(profiles.id))
      .limit(MEMBER_LIST_PAGE_SIZE)
      .offset(page * MEMBER_LIST_PAGE_SIZE),
    countMembers(db, kind, where, search),
  ]);
  return { rows, total };
}

/** Players with their characters (or none yet). */
export function listPlayers(query: { search?: string; page?: number }) {
  return memberListPage(
    "players",
    eq(profiles.role, "player"),
    (db) =>
      db
        .select({
          id: profiles.id,
          firstName: profiles.firstName,
          lastName: profiles.lastName,
          characterName: characters.characterName,
          faction: characters.faction,
          job: characters.job,
          backstory: characters.backstory,
        })
        .from(profiles)
        .leftJoin(characters, eq(characters.userId, profiles.id))
        .$dynamic(),
    query,
  );
}

/** Cast and managers, with their characters' names. */
export function listCast(query: { search?: string; page?: number }) {
  return memberListPage(
    "cast",
    inArray(profiles.role, rolesWhere(isStaff)),
    (db) =>
      db
        .select({
          id: profiles.id,
          firstName: profiles.firstName,
          lastName: profiles.lastName,
          role: profiles.role,
          characterName: characters.characterName,
        })
        .from(profiles)
        .leftJoin(characters, eq(characters.userId, profiles.id))
        .$dynamic(),
    query,
  );
}

/**
 * One page of members by last then first name, matching a name or email when `search` is given,
 * with how many match in all. A deleted account's placeholder (account-deletion.server.ts) is
 * nobody's to list: it has no contact to show and no role to change.
 */
export async function pageOfMembers<Row>(
  columns: Record<string, AnyPgColumn>,
  { search, page, pageSize }: { search: string; page: number; pageSize: number },
): Promise<{ rows: Row[]; total: number }> {
  const db = await database();
  const term = search.trim();
  const where = and(term ? memberMatches(term) : undefined, notDeletedAccount());
  const [rows, [total]] = await Promise.all([
    db
      .select(columns)
      .from(profiles)
      .where(where)
      .orderBy(asc(profiles.lastName), asc(profiles.firstName), asc(profiles.id))
      .limit(pageSize)
      .offset(page * pageSize),
    db.select({ n: count() }).from(profiles).where(where),
  ]);
  // The columns chosen are the caller's row type; the query builder cannot carry them through.
  return { rows: rows as unknown as Row[], total: total?.n ?? 0 };
}

export type ContactRow = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  emergencyContact: { name: string; phone: string } | null;
};

/**
 * Members with their emergency contacts, by last name, for managers. Each opening is
 * audited (who looked, and for what), never with the contacts themselves.
 */
export async function listEmergencyContacts(
  viewer: { id: string },
  { search = "", page = 0 }: { search?: string; page?: number },
) {
  const term = search.trim();
  const { rows, total } = await pageOfMembers<ContactRow>(
    {
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: profiles.email,
      emergencyContact: profiles.emergencyContact,
    },
    { search: term, page, pageSize: MEMBER_LIST_PAGE_SIZE },
  );
  const db = await database();
  await audit(db, { actorId: viewer.id, action: "emergency_contacts.view", details: { search: term || null, page } });
  return { rows, total };
}
