import type { EmailMessage } from "../outbox/outbox.server";
import { letterBodies } from "./templates.server";

/**
 * The emails of managers' work on members' accounts (member-admin.server.ts). A link is in
 * the body only, never in the subject: subjects are logged and shown to managers on /outbox.
 */
/** An invitation: the account exists, with no password yet; the link lets the member choose one. */
export function invitationEmail({
  to,
  firstName,
  link,
  days,
}: {
  to: string;
  firstName: string;
  link: string;
  days: number;
}): EmailMessage {
  const within = days === 1 ? "within a day" : `within ${days} days`;
  const paragraphs = [
    `Howdy ${firstName},`,
    "The managers of Hopewell have made you an account on the club's members' site. Your sign-in name is this email address.",
    `Follow the link below ${within} to choose your password; it works once. If the time has passed, choose "Forgot Password?" on the sign-in page and give this address for a new link, or ask the managers to send the invitation again.`,
    "If you were not expecting this, you may ignore this letter: nobody can sign in to the account without choosing a password from this address.",
  ];
  return {
    to,
    subject: "You are invited to the Hopewell members' site",
    ...letterBodies("Welcome to Hopewell", paragraphs, { label: "Choose your password", url: link }),
  };
}
