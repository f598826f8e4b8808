import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { config } from "~/platform/config.server";
import type { Database } from "~/platform/db/client.server";
import { profiles } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { confirmNewEmailEmail, signInCodeEmail } from "~/platform/mail/account-templates.server";
import { queueEmail } from "~/platform/outbox/outbox.server";

/**
 * The auth library's options for the two flows that email a member something to prove they
 * hold an address: a one-time sign-in code (its email-otp plugin) and the link that confirms
 * a new email address (its change-email and email-verification endpoints). Kept apart from
 * auth.server.ts, which only spreads these in. Nothing here logs a code, a token or a link.
 */

/** The page that takes a sign-in code (routes/auth/email-code.tsx). */
export const EMAIL_CODE_PAGE = "/auth/email-code";
/** The page that confirms a new email address (routes/profile/email-confirm.tsx). */
export const CONFIRM_EMAIL_PAGE = "/profile/email/confirm";
/** How long the link confirming a new email address works. */
export const EMAIL_CHANGE_LINK_EXPIRES_S = 60 * 60;
/** Wrong tries a code allows before it stops working. */
export const EMAIL_CODE_ATTEMPTS = 5;

/**
 * Where the member asked for a code to go after signing in, for the link in the email. The
 * library's callback is given only the address and the code; the request that asked for it
 * runs inside this context (email-code.server.ts), and the library awaits the callback.
 */
export const codeRequestContext = new AsyncLocalStorage<{ redirectTo?: string }>();

async function firstNameOf(db: Database, email: string): Promise<string> {
  const [row] = await db
    .select({ firstName: profiles.firstName })
    .from(profiles)
    .where(sql`lower(${profiles.email}) = ${email.toLowerCase()}`);
  return row?.firstName ?? "there";
}

/**
 * Sign-in codes: six digits, stored hashed, working once for EMAIL_CODE_EXPIRES_S and
 * EMAIL_CODE_ATTEMPTS wrong tries. Signing in only: an address without an account gets no
 * email and no account (the page answers the same either way).
 */
export async function emailCodePlugin(db: Database, origin: () => string) {
  const { emailOTP } = await import("better-auth/plugins/email-otp");
  return emailOTP({
    otpLength: 6,
    expiresIn: config().emailCode.expiresS,
    allowedAttempts: EMAIL_CODE_ATTEMPTS,
    storeOTP: "hashed",
    disableSignUp: true,
    sendVerificationOTP: async ({ email, otp, type }) => {
      // Only the sign-in page asks for codes; no other kind is offered.
      if (type !== "sign-in") {
        logger.warn({ type }, "an email code of a kind the site does not offer was asked for; nothing was sent");
        return;
      }
      const query = new URLSearchParams({ email, code: otp });
      const redirectTo = codeRequestContext.getStore()?.redirectTo;
      if (redirectTo) query.set("redirectTo", redirectTo);
      const link = `${origin()}${EMAIL_CODE_PAGE}?${query}`;
      await queueEmail(
        db,
        signInCodeEmail({
          to: email,
          firstName: await firstNameOf(db, email),
          code: otp,
          link,
          expiresS: config().emailCode.expiresS,
        }),
      );
    },
  });
}

/**
 * Changing the email address: the library's change-email endpoint signs a token for the new
 * address and hands it here, to go to that new address; our confirmation page gives it back
 * to the library's verify-email endpoint, which makes the change. Its own link (to its HTTP
 * handler, which the site does not mount) is not used.
 */
export function emailVerificationOptions(db: Database, origin: () => string) {
  return {
    expiresIn: EMAIL_CHANGE_LINK_EXPIRES_S,
    sendVerificationEmail: async ({ user, token }: { user: { email: string; name: string }; token: string }) => {
      const link = `${origin()}${CONFIRM_EMAIL_PAGE}?${new URLSearchParams({ token })}`;
      const firstName = (user as { firstName?: string }).firstName ?? user.name;
      await queueEmail(
        db,
        confirmNewEmailEmail({ to: user.email, firstName, link, expiresS: EMAIL_CHANGE_LINK_EXPIRES_S }),
      );
    },
  };
}
