import { and, eq, sql } from "drizzle-orm";
import { audit } from "~/platform/audit.server";
import { passkeys, profiles, twoFactors } from "~/platform/db/schema";
import { endSessions, withMember, type Actor } from "./member-admin.server";

// A member's lost ways of signing in, taken away by a manager (routes/staff/tools/member.tsx):
// the authenticator app, the phone for texted codes, one passkey, and every session.

/**
 * Removes the member's authenticator app and its backup codes (a lost phone): they sign in
 * with their password alone until they set up a new one, or with a texted code when they have
 * a phone for them. Their sessions are left as they are.
 */
export async function removeAuthenticatorApp(actor: Actor, id: string): Promise<"removed" | "none" | "not-found"> {
  return withMember(id, async (tx, member) => {
    const removed = await tx.delete(twoFactors).where(eq(twoFactors.userId, id)).returning({ id: twoFactors.id });
    const phone = member.twoFactorPhone !== null;
    if (removed.length === 0 && (!member.twoFactorEnabled || phone)) return "none" as const;
    if (!phone)
      await tx
        .update(profiles)
        .set({ twoFactorEnabled: false, updatedAt: sql`now()` })
        .where(eq(profiles.id, id));
    await audit(tx, {
      actorId: actor.id,
      action: "member.factor_remove",
      subjectId: id,
      details: { factor: "authenticator" },
    });
    return "removed" as const;
  });
}

/**
 * Removes the member's phone for texted codes (a lost or changed number). When it was their only
 * second factor (no authenticator app), two-factor authentication goes off with it. Their
 * sessions are left as they are.
 */
export async function removeMemberPhone(actor: Actor, id: string): Promise<"removed" | "none" | "not-found"> {
  return withMember(id, async (tx, member) => {
    if (!member.twoFactorPhone) return "none" as const;
    const [app] = await tx
      .select({ id: twoFactors.id })
      .from(twoFactors)
      .where(and(eq(twoFactors.userId, id), eq(twoFactors.verified, true)));
    await tx
      .update(profiles)
      .set({
        twoFactorPhone: null,
        twoFactorPhonePending: null,
        ...(app ? {} : { twoFactorEnabled: false }),
        updatedAt: sql`now()`,
      })
      .where(eq(profiles.id, id));
    await audit(tx, { actorId: actor.id, action: "member.factor_remove", subjectId: id, details: { factor: "phone" } });
    return "removed" as const;
  });
}

/** Removes one of the member's passkeys (a lost device): it no longer signs anyone in. */
export async function removeMemberPasskey(
  actor: Actor,
  id: string,
  passkeyId: string,
): Promise<{ outcome: "removed"; name: string } | { outcome: "none" } | { outcome: "not-found" }> {
  const result = await withMember(id, async (tx) => {
    const [removed] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, id)))
      .returning({ name: passkeys.name });
    if (!removed) return { outcome: "none" as const };
    const name = removed.name?.trim() || "Unnamed passkey";
    await audit(tx, {
      actorId: actor.id,
      action: "member.factor_remove",
      subjectId: id,
      details: { factor: "passkey", name },
    });
    return { outcome: "removed" as const, name };
  });
  return result === "not-found" ? { outcome: "not-found" } : result;
}

/** Ends every signed-in session of the member (every device); recorded even when there was none. */
export async function endMemberSessions(actor: Actor, id: string): Promise<{ ended: number } | "not-found"> {
  return withMember(id, async (tx) => {
    const ended = await endSessions(tx, id);
    await audit(tx, { actorId: actor.id, action: "member.sessions_end", subjectId: id, details: { count: ended } });
    return { ended };
  });
}
