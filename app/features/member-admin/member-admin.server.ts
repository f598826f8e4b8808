import { and, asc, count, eq, gt, inArray, ne, sql } from "drizzle-orm";
import { INVITATION_LINK_DAYS, PASSWORD_LINK_HOURS } from "~/identity/link-lifetimes";
import { isManager, isRole, rolesWhere, type Role } from "~/game/roles";
import { audit } from "~/platform/audit.server";
import { database, type Transaction } from "~/platform/db/client.server";
import { isUniqueViolation } from "~/platform/db/constraint-errors.server";
import { accounts, passkeys, profiles, sessions, twoFactors } from "~/platform/db/schema";
import { DISCORD_PROVIDER_ID } from "~/identity/discord-oauth.server";
import { emailChangedEmail } from "~/platform/mail/account-templates.server";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { maskPhone } from "~/platform/sms/sms.server";

/**
 * Managers' work on one member's account (routes/staff/tools/member.tsx, routes/staff/tools/invite.tsx):
 * reading it whole, correcting the name and email, suspending and restoring it, removing a
 * lost second factor and ending its sessions (inviting a new member and making a password link
 * to hand over are in invitations.server.ts). Each change is recorded in the audit log, in the same transaction, with who
 * made it. Role changes go through roles.server.ts (`changeRole`).
 *
 * The auth library offers these for another member's account only through its admin plugin,
 * which is not used (its roles and endpoints are not the club's): the rows changed here are
 * our own schema's, and the password links come from the library's own reset-token endpoint.
 */

/** A manager acting on the tools pages. */
export type Actor = { id: string };

export { INVITATION_LINK_DAYS, PASSWORD_LINK_HOURS };

export type MemberAccount = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  createdAt: string;
  suspended: boolean;
  suspendReason: string | null;
  signInMethods: { password: boolean; discord: boolean };
  authenticatorApp: boolean;
  /** The confirmed phone for texted codes, by its last two digits only. */
  phone: string | null;
  passkeys: { id: string; name: string; addedAt: string | null }[];
  /** Sessions not yet expired: the devices the member is signed in on. */
  sessions: number;
};

/** The columns of a member's row that the managers' page shows and its actions decide by. */
const accountColumns = {
  id: profiles.id,
  firstName: profiles.firstName,
  lastName: profiles.lastName,
  email: profiles.email,
  role: profiles.role,
  banned: profiles.banned,
  twoFactorEnabled: profiles.twoFactorEnabled,
  twoFactorPhone: profiles.twoFactorPhone,
};

/** One member's account as the managers' page shows it; never a secret, a hash or a token. */
export async function memberAccount(id: string): Promise<MemberAccount | undefined> {
  const db = await database();
  const [profile] = await db
    .select({ ...accountColumns, createdAt: profiles.createdAt, banReason: profiles.banReason })
    .from(profiles)
    .where(eq(profiles.id, id));
  if (!profile || !isRole(profile.role)) return undefined;
  const [methods, keys, [live], apps] = await Promise.all([
    db
      .select({ providerId: accounts.providerId, password: sql<boolean>`${accounts.password} is not null` })
      .from(accounts)
      .where(eq(accounts.userId, id)),
    db
      .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt })
      .from(passkeys)
      .where(eq(passkeys.userId, id))
      .orderBy(asc(passkeys.createdAt), asc(passkeys.id)),
    db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, id), gt(sessions.expiresAt, sql`now()`))),
    db
      .select({ id: twoFactors.id })
      .from(twoFactors)
      .where(and(eq(twoFactors.userId, id), eq(twoFactors.verified, true))),
  ]);
  return {
    id: profile.id,
    firstName: profile.firstName,
    lastName: profile.lastName,
    email: profile.email,
    role: profile.role,
    createdAt: new Date(profile.createdAt).toISOString(),
    suspended: profile.banned,
    suspendReason: profile.banReason,
    signInMethods: {
      password: methods.some((m) => m.providerId === "credential" && m.password),
      discord: methods.some((m) => m.providerId === DISCORD_PROVIDER_ID),
    },
    authenticatorApp: profile.twoFactorEnabled && apps.length > 0,
    phone: profile.twoFactorPhone ? maskPhone(profile.twoFactorPhone) : null,
    passkeys: keys.map((key) => ({
      id: key.id,
      name: key.name?.trim() || "Unnamed passkey",
      addedAt: key.createdAt ? new Date(key.createdAt).toISOString() : null,
    })),
    sessions: live?.n ?? 0,
  };
}

type Locked = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  banned: boolean;
  twoFactorEnabled: boolean;
  twoFactorPhone: string | null;
};

/** Runs `work` on the member's row, locked against other managers' changes; "not-found" when there is none. */
export async function withMember<T>(
  id: string,
  work: (tx: Transaction, member: Locked) => Promise<T>,
): Promise<T | "not-found"> {
  const db = await database();
  return db.transaction(async (tx) => {
    const [member] = await tx.select(accountColumns).from(profiles).where(eq(profiles.id, id)).for("update");
    if (!member) return "not-found";
    return work(tx, member);
  });
}

/** Ends every session of the member in the caller's transaction: the next request with any of them is signed out. */
export async function endSessions(tx: Transaction, userId: string): Promise<number> {
  const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return ended.length;
}

export async function emailInUse(tx: Transaction, email: string, except?: string): Promise<boolean> {
  const [other] = await tx
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(sql`lower(${profiles.email})`, email.toLowerCase()), except ? ne(profiles.id, except) : undefined));
  return other !== undefined;
}

export type DetailsInput = { firstName: string; lastName: string; email: string };
export type DetailsOutcome = "saved" | "unchanged" | "email-taken" | "not-found";

/**
 * Corrects the member's name and email. The email stays unique (any case); a new one is not
 * yet proven by the member, and their old address is told of the change.
 */
export async function updateMemberDetails(actor: Actor, id: string, input: DetailsInput): Promise<DetailsOutcome> {
  try {
    return await withMember(id, async (tx, member) => {
      const changed = [
        ...(member.firstName !== input.firstName || member.lastName !== input.lastName ? ["name"] : []),
        ...(member.email.toLowerCase() !== input.email.toLowerCase() ? ["email"] : []),
      ];
      if (changed.length === 0) return "unchanged" as const;
      if (changed.includes("email") && (await emailInUse(tx, input.email, id))) return "email-taken" as const;
      await tx
        .update(profiles)
        .set({
          firstName: input.firstName,
          lastName: input.lastName,
          name: `${input.firstName} ${input.lastName}`,
          email: input.email,
          ...(changed.includes("email") ? { emailVerified: false } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(profiles.id, id));
      await audit(tx, { actorId: actor.id, action: "member.update", subjectId: id, details: { changed } });
      if (changed.includes("email")) {
        await queueEmail(
          tx,
          emailChangedEmail({ to: member.email, firstName: input.firstName, newEmail: input.email, by: "manager" }),
        );
      }
      return "saved" as const;
    });
  } catch (error) {
    // Another account took the address between the check and the update.
    if (isUniqueViolation(error)) return "email-taken";
    throw error;
  }
}

export type SuspendOutcome =
  | { outcome: "suspended"; sessionsEnded: number }
  | { outcome: "already" }
  | { outcome: "yourself" }
  | { outcome: "last-manager" }
  | { outcome: "not-found" };

/**
 * Suspends the account: it cannot sign in by any way (suspension.server.ts) and its sessions
 * end now. A manager cannot suspend themselves, and the last manager who can sign in is never
 * suspended. The managers' rows are locked first, as for role changes.
 */
export async function suspendMember(actor: Actor, id: string, reason: string): Promise<SuspendOutcome> {
  if (actor.id === id) return { outcome: "yourself" };
  const db = await database();
  return db.transaction(async (tx): Promise<SuspendOutcome> => {
    const managers = await tx
      .select({ id: profiles.id, banned: profiles.banned })
      .from(profiles)
      .where(inArray(profiles.role, rolesWhere(isManager)))
      .for("update");
    const [member] = await tx
      .select({ id: profiles.id, role: profiles.role, banned: profiles.banned })
      .from(profiles)
      .where(eq(profiles.id, id))
      .for("update");
    if (!member) return { outcome: "not-found" };
    if (member.banned) return { outcome: "already" };
    const otherActiveManagers = managers.filter((m) => m.id !== id && !m.banned).length;
    if (isRole(member.role) && isManager(member.role) && otherActiveManagers === 0) return { outcome: "last-manager" };
    await tx
      .update(profiles)
      .set({ banned: true, banReason: reason || null, banExpires: null, updatedAt: sql`now()` })
      .where(eq(profiles.id, id));
    const sessionsEnded = await endSessions(tx, id);
    await audit(tx, {
      actorId: actor.id,
      action: "member.suspend",
      subjectId: id,
      details: { ...(reason ? { reason } : {}), sessionsEnded },
    });
    return { outcome: "suspended", sessionsEnded };
  });
}

/** Lets a suspended member sign in again. */
export async function restoreMember(actor: Actor, id: string): Promise<"restored" | "not-suspended" | "not-found"> {
  return withMember(id, async (tx, member) => {
    if (!member.banned) return "not-suspended" as const;
    await tx
      .update(profiles)
      .set({ banned: false, banReason: null, banExpires: null, updatedAt: sql`now()` })
      .where(eq(profiles.id, id));
    await audit(tx, { actorId: actor.id, action: "member.restore", subjectId: id });
    return "restored" as const;
  });
}
