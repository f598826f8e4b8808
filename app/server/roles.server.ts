import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Role } from "~/game/roles";
import type { SessionUser } from "~/lib/navigation";
import { audit } from "./audit.server";
import { database } from "./db/client.server";
import { profiles } from "./db/schema";
import { memberMatches } from "./search.server";

export const ROLES_PAGE_SIZE = 50;

export type RoleListEntry = { id: string; firstName: string; lastName: string; email: string; role: Role };

/** Members by last then first name, optionally matching a name or email, a page at a time. */
export async function listMembersWithRoles({ search = "", page = 0 }: { search?: string; page?: number }) {
  const db = await database();
  const term = search.trim();
  const where = term ? memberMatches(term) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({ id: profiles.id, firstName: profiles.firstName, lastName: profiles.lastName, email: profiles.email, role: profiles.role })
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
  const [row] = await db.select({ firstName: profiles.firstName, lastName: profiles.lastName, role: profiles.role }).from(profiles).where(eq(profiles.id, userId));
  return row ? { name: `${row.firstName} ${row.lastName}`, role: row.role as Role } : undefined;
}

export type RoleChange = "changed" | "unchanged" | "not-found" | "last-manager";

/**
 * Sets a member's role and records it in the audit log. The managers' rows are
 * locked first, so two managers demoting each other at once cannot leave none.
 */
export async function changeRole(actor: SessionUser, userId: string, role: Role): Promise<RoleChange> {
  const db = await database();
  return db.transaction(async (tx) => {
    const managers = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.role, "manager")).for("update");
    const [target] = await tx.select({ role: profiles.role }).from(profiles).where(eq(profiles.id, userId)).for("update");
    if (!target) return "not-found";
    if (target.role === role) return "unchanged";
    if (target.role === "manager" && managers.length <= 1) return "last-manager";
    await tx.update(profiles).set({ role, updatedAt: sql`now()` }).where(and(eq(profiles.id, userId)));
    await audit(tx, { actorId: actor.id, action: "role.change", subjectId: userId, details: { from: target.role, to: role } });
    return "changed";
  });
}
