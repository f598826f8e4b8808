import { z } from "zod";

export const DELETE_CONFIRM_MESSAGE = "Please tick the box to confirm that the account is to be deleted";

/** "Delete my account": the password when the member has one, and the ticked confirmation. */
export const DeleteAccountForm = z.object({
  currentPassword: z.string().max(1000).optional().default(""),
  confirm: z.literal("on", { error: DELETE_CONFIRM_MESSAGE }),
});

/** A manager's "Delete this account": the ticked confirmation. */
export const ManagerDeleteForm = z.object({
  confirm: z.literal("on", { error: DELETE_CONFIRM_MESSAGE }),
});

export const DELETION_MESSAGES = {
  passwordRequired: "Please enter your password",
  notFresh: "For your safety, please sign out and sign in again, then delete your account within 10 minutes.",
  failed: "Your account could not be deleted. Nothing was removed. Please try again in a moment.",
  alreadyDeleted: "This account has already been deleted.",
  lastManager: "The club's only manager cannot be deleted. Make another member a manager first.",
  managerTarget:
    "A manager's account is not deleted from here. Change their role first, or they delete it themselves from their profile.",
} as const;

/** The one statement of what deleting does, shown on both pages. */
export const DELETION_STATEMENT = {
  removed: [
    "your profile: name, email address and emergency contact",
    "your application and your character",
    "your post-event letters, merchant orders and research papers, with their uploaded files",
    "your costume photos, with staff's verdicts on them and the reminders sent",
    "your copies of the managers' messages (your Notices), and any not yet emailed",
    "your sign-in methods (password, Discord), passkeys, second factor and every signed-in device",
    "any copy of your data prepared for download",
  ],
  kept: [
    "attendance and payment records, which the club must keep: they stay without your name or contact, under your character's name",
    "the audit log of what managers did, without your name or contact",
    "letters you wrote to other characters, which their players received: they stay, signed with your character's name only",
  ],
} as const;
