import { z } from "zod";
import { ROLES } from "~/game/roles";
import { email, PERSON_NAME_MAX } from "~/features/accounts/auth.form";
import { optionalTextField, textField } from "~/web/forms/kernel";

/**
 * The managers' forms for one member's account (routes/staff/tools/member.tsx) and for inviting a
 * member (routes/staff/tools/invite.tsx), and what those pages and the sign-in pages say.
 */

export const MEMBER_ADMIN_MESSAGES = {
  notFound: "No member has this address. The account may have been deleted, or the link is wrong.",
  emailTaken: "Another account already uses this email address. Choose another, or open that account instead.",
  lastManager: "There must always be at least one manager who can sign in. Make someone else a manager first.",
  notYourself: "You cannot suspend your own account.",
  chooseAction: "That action is not available here.",
  failed: "The change could not be saved. Please try again.",
  loadFailed: "Failed to load the member's account",
  inviteFailed: "The invitation could not be sent. Please try again.",
  passkeyGone: "That passkey has already been removed.",
  noAuthenticator: "This member has no authenticator app to remove.",
  noPhone: "This member has no phone for text messages to remove.",
} as const;

const role = z.enum(ROLES, { error: "Please choose a role" });

/** Name and email, as a manager corrects them. */
export const MemberDetailsForm = z.object({
  firstName: textField(PERSON_NAME_MAX),
  lastName: textField(PERSON_NAME_MAX),
  email,
});

/** A new member, invited by email: they set their own password from the link. */
export const InviteForm = MemberDetailsForm.extend({ role: role.default("applicant") });

export const RoleForm = z.object({ role });

/** Why the account is suspended: for the managers, never shown to the member. */
export const SuspendForm = z.object({ reason: optionalTextField(300) });

/** The member page's actions, each a button named `intent`. */
export const MEMBER_INTENTS = [
  "details",
  "role",
  "suspend",
  "restore",
  "remove-authenticator",
  "remove-phone",
  "remove-passkey",
  "end-sessions",
  "reset-link",
  "resend-invite",
] as const;
export type MemberIntent = (typeof MEMBER_INTENTS)[number];

export function memberIntentOf(value: unknown): MemberIntent | undefined {
  return MEMBER_INTENTS.find((intent) => intent === value);
}
