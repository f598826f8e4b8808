import { and, asc, count, eq } from "drizzle-orm";
import type { Role } from "~/game/roles";
import { notDeletedAccount } from "~/features/accounts/account-deletion.server";
import { database } from "~/platform/db/client.server";
import { profiles } from "~/platform/db/schema";
import { memberMatches } from "~/platform/db/search.server";

export const ROLES_PAGE_SIZE = 50;

export type RoleListEntry = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  suspended: boolean;
};

/** Members by last then first name, optionally matching a name or email, a page at a time. */
export async function listMembersWithRoles({ search = "", page = 0 }: { search?: string; page?: number }) {
  const db = await database();
  const term = search.trim();
  // A deleted account's placeholder (account-deletion.server.ts) is nobody's to change.
  const where = and(term ? memberMatches(term) : undefined, notDeletedAccount());
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: profiles.id,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
        email: profiles.email,
        role: profiles.role,
        suspended: profiles.banned,
      })
      .from(profiles)
      .where(where)
      .orderBy(asc(profiles.lastName), asc(profiles.firstName), asc(profiles.id))
      .limit(ROLES_PAGE_SIZE)
      .offset(page * ROLES_PAGE_SIZE),
    db.select({ n: count() }).from(profiles).where(where),
  ]);
  return { members: rows as RoleListEntry[], total: total?.n ?? 0 };
}

/** The member's name and current role, for the confirmation step before a change. */
export async function memberForRoleChange(userId: string): Promise<{ name: string; role: Role } | undefined> {
  const db = await database();
  const [row] = await db
    .select({ firstName: profiles.firstName, lastName: profiles.lastName, role: profiles.role })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return row ? { name: `${row.firstName} ${row.lastName}`, role: row.role as Role } : undefined;
}
