import { eq, inArray, sql } from "drizzle-orm";
import { isManager, isRole, rolesWhere, type Role } from "~/game/roles";
import { audit, type AuditAction } from "~/platform/audit.server";
import { database } from "~/platform/db/client.server";
import { profiles } from "~/platform/db/schema";

export type RoleChange = "changed" | "unchanged" | "not-found" | "last-manager";

/**
 * Who changes a role: a signed-in member (a manager on the tools page; the new manager
 * with the set-up link), or an operator's tool such as the admin command ("cli"), which
 * has no account of its own and is named in the audit entry instead.
 */
export type RoleChanger = { id: string } | { operator: "cli" };

/** Whose role changes: by id (the tools page) or by email (the admin command). */
export type RoleTarget = { id: string } | { email: string };

/**
 * The one way to change a role: sets it and records it in the audit log, and never
 * leaves the site without a manager. The managers' rows are locked first, so two
 * managers demoting each other at once cannot leave none.
 */
export async function changeRole(
  actor: RoleChanger,
  target: RoleTarget,
  role: Role,
  { action = "role.change" }: { action?: Extract<AuditAction, "role.change" | "first_manager.create"> } = {},
): Promise<RoleChange> {
  const db = await database();
  return db.transaction(async (tx) => {
    const managers = await tx
      .select({ id: profiles.id })
      .from(profiles)
      .where(inArray(profiles.role, rolesWhere(isManager)))
      .for("update");
    const [member] = await tx
      .select({ id: profiles.id, role: profiles.role })
      .from(profiles)
      .where(
        "id" in target ? eq(profiles.id, target.id) : eq(sql`lower(${profiles.email})`, target.email.toLowerCase()),
      )
      .for("update");
    if (!member) return "not-found";
    if (member.role === role) return "unchanged";
    if (isRole(member.role) && isManager(member.role) && !isManager(role) && managers.length <= 1)
      return "last-manager";
    await tx
      .update(profiles)
      .set({ role, updatedAt: sql`now()` })
      .where(eq(profiles.id, member.id));
    await audit(tx, {
      actorId: "id" in actor ? actor.id : null,
      action,
      subjectId: member.id,
      details: { from: member.role, to: role, ...("operator" in actor ? { operator: actor.operator } : {}) },
    });
    return "changed";
  });
}
