import { eq } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import { profiles } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { otpDelivery } from "./otp-delivery.server";
import { queueSms } from "~/platform/sms/sms.server";

/** Minutes a texted second-factor code works. */
export const TEXTED_CODE_MINUTES = 10;
/** Seconds a member has, after the password, to give the second factor. */
export const SECOND_STEP_SECONDS = 10 * 60;
/** Wrong codes in a row, across sign-ins, before the library locks the factor; and for how long. */
export const LOCK_AFTER_FAILURES = 10;
export const LOCK_SECONDS = 15 * 60;

/** The member's confirmed number for texted codes, if any. */
async function confirmedPhoneNumber(db: Database, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ phone: profiles.twoFactorPhone }).from(profiles).where(eq(profiles.id, userId));
  return row?.phone ?? undefined;
}

/**
 * The auth library's two-factor plugin, mapped onto our tables: its `twoFactor` model is
 * `two_factors` (drizzle's `twoFactors`), its user field `twoFactorEnabled` a column of
 * `profiles`. The library encrypts the authenticator secret and the backup codes itself;
 * its one-time codes are stored hashed and queued in the outbox as text messages to the
 * member's phone (otp-delivery.server.ts), without their text in any log.
 */
export async function twoFactorPlugin(db: Database) {
  const { twoFactor } = await import("better-auth/plugins/two-factor");
  return twoFactor({
    issuer: "Hopewell",
    schema: { twoFactor: { modelName: "twoFactors" } },
    twoFactorCookieMaxAge: SECOND_STEP_SECONDS,
    accountLockout: { enabled: true, maxFailedAttempts: LOCK_AFTER_FAILURES, durationSeconds: LOCK_SECONDS },
    backupCodeOptions: { amount: 10, length: 10, storeBackupCodes: "encrypted" },
    otpOptions: {
      period: TEXTED_CODE_MINUTES,
      allowedAttempts: 5,
      storeOTP: "hashed",
      sendOTP: async ({ user, otp }) => {
        const delivery = otpDelivery.getStore();
        if (delivery?.channel !== "sms") {
          // Only texted codes are a second factor; nothing else may make the library send one.
          logger.error("a second-factor code was asked for without a text message to send it by: nothing was sent");
          return;
        }
        try {
          const to = delivery.to ?? (await confirmedPhoneNumber(db, user.id));
          if (!to) {
            delivery.outcome = "no-phone";
            return;
          }
          const text = delivery.to
            ? `Hopewell: ${otp} is your code to confirm this phone. It works once, within ${TEXTED_CODE_MINUTES} minutes. Do not share it.`
            : `Hopewell: ${otp} is your sign-in code. It works once, within ${TEXTED_CODE_MINUTES} minutes. Do not share it.`;
          await queueSms(db, { to, text, label: delivery.to ? "Phone confirmation code" : "Sign-in code" });
          delivery.outcome = "queued";
        } catch (error) {
          logger.error({ err: error }, "queueing a sign-in code failed");
          throw error;
        }
      },
    },
  });
}
