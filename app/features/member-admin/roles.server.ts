import { eq } from "drizzle-orm";
import type { Role } from "~/game/roles";
import { pageOfMembers } from "~/features/members/members.server";
import { database } from "~/platform/db/client.server";
import { profiles } from "~/platform/db/schema";

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
  const { rows, total } = await pageOfMembers<RoleListEntry>(
    {
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: profiles.email,
      role: profiles.role,
      suspended: profiles.banned,
    },
    { search, page, pageSize: ROLES_PAGE_SIZE },
  );
  return { members: rows, total };
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
