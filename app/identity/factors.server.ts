import { and, eq } from "drizzle-orm";
import { authRefusal, getAuth } from "./auth.server";
import { database } from "~/platform/db/client.server";
import { passkeys, profiles, twoFactors } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { maskPhone, smsEnabled } from "~/platform/sms/sms.server";

/**
 * Which factors a member has, and which of them a second sign-in step can offer: read by the
 * pages that show or ask for a factor, and by the gates that require one.
 */

/** The ways to give a second factor on /auth/two-factor (a passkey signs in by its own button). An emailed code is none: see docs/decisions/0017-a-second-factor-is-a-second-factor.md. */
export type SecondFactorKind = "totp" | "backup" | "sms";

/** Whether the member has a confirmed second factor. */
export async function hasSecondFactor(userId: string): Promise<boolean> {
  const db = await database();
  const [row] = await db.select({ enabled: profiles.twoFactorEnabled }).from(profiles).where(eq(profiles.id, userId));
  return row?.enabled === true;
}

/** Whether the member has a confirmed authenticator app (with its backup codes). */
export async function hasAuthenticatorApp(userId: string): Promise<boolean> {
  const db = await database();
  const [row] = await db
    .select({ id: twoFactors.id })
    .from(twoFactors)
    .where(and(eq(twoFactors.userId, userId), eq(twoFactors.verified, true)))
    .limit(1);
  return row !== undefined;
}

/** The member's numbers for texted codes (E.164): the confirmed one, and one being added, waiting for its first code. */
export async function phoneFactorOf(userId: string): Promise<{ confirmed: string | null; pending: string | null }> {
  const db = await database();
  const [row] = await db
    .select({ confirmed: profiles.twoFactorPhone, pending: profiles.twoFactorPhonePending })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return { confirmed: row?.confirmed ?? null, pending: row?.pending ?? null };
}

export type TwoFactorStatus = {
  enabled: boolean;
  /** An authenticator app is set up (with backup codes). */
  app: boolean;
  backupCodesLeft: number | null;
  /** The confirmed phone for texted codes, shown by its last two digits. */
  phone: string | null;
  /** Whether text messages can be sent at all (SMS_WEBHOOK_URL). */
  sms: boolean;
};

/** What /profile/two-factor shows: on or off, which factors, and how many backup codes are left. */
export async function twoFactorStatus(userId: string): Promise<TwoFactorStatus> {
  const [enabled, app, phone] = await Promise.all([
    hasSecondFactor(userId),
    hasAuthenticatorApp(userId),
    phoneFactorOf(userId),
  ]);
  const shown = {
    enabled,
    app,
    phone: enabled && phone.confirmed ? maskPhone(phone.confirmed) : null,
    sms: smsEnabled(),
  };
  if (!enabled || !app) return { ...shown, backupCodesLeft: null };
  const auth = await getAuth();
  try {
    const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId } });
    return { ...shown, backupCodesLeft: backupCodes.length };
  } catch (error) {
    logger.warn({ err: (await authRefusal(error))?.code ?? error }, "reading the number of backup codes failed");
    return { ...shown, backupCodesLeft: null };
  }
}

/** Whether the member has a passkey: it signs in with two factors at once (aal2), so it counts as one. */
export async function hasPasskey(userId: string): Promise<boolean> {
  const db = await database();
  const [row] = await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1);
  return row !== undefined;
}

/**
 * The ways a signed-in member can prove a second factor on /auth/two-factor: their
 * authenticator app (with its backup codes), their phone (only while texts can be sent) and
 * their passkeys. Never their email: the mailbox is what an emailed sign-in code, a reset link
 * and an invitation already prove (docs/decisions/0017-a-second-factor-is-a-second-factor.md).
 */
export type SecondFactorWays = { app: boolean; phone: boolean; passkey: boolean };

export async function secondFactorWaysOf(userId: string): Promise<SecondFactorWays> {
  const [app, phone, passkey] = await Promise.all([
    hasAuthenticatorApp(userId),
    phoneFactorOf(userId),
    hasPasskey(userId),
  ]);
  return { app, phone: phone.confirmed !== null && smsEnabled(), passkey };
}

/**
 * Whether the member has anything that proves a second factor: a factor of the two-factor
 * plugin (an app or a phone) or a passkey. A session proven by less may not add a new one
 * (app/web/two-factor-gate.server.ts), or whoever holds the mailbox could add their own.
 */
export async function hasAnyFactor(userId: string): Promise<boolean> {
  const [enabled, passkey] = await Promise.all([hasSecondFactor(userId), hasPasskey(userId)]);
  return enabled || passkey;
}

/** The way /auth/two-factor first offers to a member with a factor: their authenticator app, else a code texted to their phone. */
export async function preferredSecondFactor(userId: string): Promise<SecondFactorKind> {
  const ways = await secondFactorWaysOf(userId);
  return !ways.app && ways.phone ? "sms" : "totp";
}
