import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { INVITATION_LINK_DAYS } from "~/identity/link-lifetimes";
import { type Role } from "~/game/roles";
import { audit } from "~/platform/audit.server";
import { getAuth, getInvitationAuth } from "~/identity/auth.server";
import { database } from "~/platform/db/client.server";
import { profiles } from "~/platform/db/schema";
import { recordInvitationLink } from "~/features/accounts/invitation-links.server";
import { logger } from "~/platform/logger.server";
import { invitationEmail } from "~/platform/mail/member-admin-templates.server";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { resetDelivery } from "~/identity/reset-delivery.server";
import { type Actor, type DetailsInput, emailInUse } from "./member-admin.server";
import { isUniqueViolation } from "~/platform/db/constraint-errors.server";

/**
 * Password links made for a member by a manager: an invitation to a new account, sent again when
 * asked (each replacing the earlier links), and a one-time link to hand over in person.
 */

/**
 * A password link made by the auth library's reset-token endpoint, handed to `deliver` in
 * place of the usual reset email (auth.server.ts). True once `deliver` has run: the library
 * logs and swallows a failure of its callback, so success is only known this way. Invitations
 * come from the instance whose links last INVITATION_LINK_DAYS; hand-over links from the main
 * one (PASSWORD_LINK_HOURS).
 */
async function passwordLink(
  email: string,
  deliver: (member: { email: string; firstName: string }, link: string) => Promise<void>,
  { invitation = false } = {},
): Promise<boolean> {
  const auth = invitation ? await getInvitationAuth() : await getAuth();
  let delivered = false;
  await resetDelivery.run(
    {
      deliver: async (member, link) => {
        await deliver(member, link);
        delivered = true;
      },
    },
    () => auth.api.requestPasswordReset({ body: { email } }),
  );
  return delivered;
}

/** Emails the member a new invitation link, which replaces any earlier one (invitation-links.server.ts). */
async function sendInvitation(memberId: string, email: string): Promise<boolean> {
  const db = await database();
  return passwordLink(
    email,
    async (member, link) => {
      // `welcome` makes the page greet a new member instead of speaking of a new password (routes/auth/reset-password.tsx).
      await queueEmail(
        db,
        invitationEmail({
          to: member.email,
          firstName: member.firstName,
          link: `${link}&welcome=1`,
          days: INVITATION_LINK_DAYS,
        }),
      );
      // Only once the new link is on its way: an invitation that could not be queued replaces nothing.
      await recordInvitationLink(db, memberId, new URL(link).searchParams.get("token") ?? "");
    },
    { invitation: true },
  );
}

export type InviteInput = DetailsInput & { role: Role };
export type InviteOutcome = { outcome: "invited" | "not-sent"; id: string } | { outcome: "email-taken" };

/**
 * Makes the account (no password, no way in yet) and emails the member a link to choose their
 * password. The address is taken as proven: the member can only use the account from it. When
 * the email cannot be queued the account stays, and the invitation can be sent again from its page.
 */
export async function inviteMember(actor: Actor, input: InviteInput): Promise<InviteOutcome> {
  const db = await database();
  const id = crypto.randomUUID();
  try {
    const created = await db.transaction(async (tx) => {
      if (await emailInUse(tx, input.email)) return false;
      await tx.insert(profiles).values({
        id,
        firstName: input.firstName,
        lastName: input.lastName,
        name: `${input.firstName} ${input.lastName}`,
        email: input.email,
        role: input.role,
        emailVerified: true,
      });
      await audit(tx, { actorId: actor.id, action: "member.invite", subjectId: id, details: { role: input.role } });
      return true;
    });
    if (!created) return { outcome: "email-taken" };
  } catch (error) {
    if (isUniqueViolation(error)) return { outcome: "email-taken" };
    throw error;
  }
  const sent = await sendInvitation(id, input.email).catch((error: unknown) => {
    logger.error({ err: error }, "queueing an invitation failed");
    return false;
  });
  return { outcome: sent ? "invited" : "not-sent", id };
}

/** Sends the invitation again: a new link, and the earlier ones no longer work. */
export async function resendInvitation(actor: Actor, id: string): Promise<"sent" | "not-sent" | "not-found"> {
  const db = await database();
  const [member] = await db.select({ email: profiles.email }).from(profiles).where(eq(profiles.id, id));
  if (!member) return "not-found";
  if (!(await sendInvitation(id, member.email))) return "not-sent";
  await audit(db, { actorId: actor.id, action: "member.invite_resend", subjectId: id });
  return "sent";
}

/**
 * A one-time link that lets the member choose a new password, for the manager to hand over
 * (in person, or by a message they trust): shown once on the page, never emailed, logged or
 * kept. The audit entry records that one was made, not the link.
 */
export async function handOverPasswordLink(actor: Actor, id: string): Promise<{ link: string } | "not-found"> {
  const db = await database();
  const [member] = await db.select({ email: profiles.email }).from(profiles).where(eq(profiles.id, id));
  if (!member) return "not-found";
  let made: string | undefined;
  await passwordLink(member.email, async (_member, link) => {
    made = link;
  });
  if (!made) throw new Error("the auth library made no password link");
  await audit(db, { actorId: actor.id, action: "member.reset_link", subjectId: id });
  return { link: made };
}
