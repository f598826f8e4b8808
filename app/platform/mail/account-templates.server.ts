import type { EmailMessage } from "../outbox/outbox.server";
import { letterBodies } from "./templates.server";

/**
 * The emails of signing in with a code and of changing the account's email address. A code
 * or a link is in the body only, never in the subject: subjects are logged and shown to
 * managers on /outbox.
 */
function minutes(seconds: number): string {
  const m = Math.round(seconds / 60);
  return m === 1 ? "1 minute" : `${m} minutes`;
}

export function signInCodeEmail({
  to,
  firstName,
  code,
  link,
  expiresS,
}: {
  to: string;
  firstName: string;
  code: string;
  link: string;
  expiresS: number;
}): EmailMessage {
  const paragraphs = [
    `Howdy ${firstName},`,
    `Your code to sign in to Hopewell is ${code}`,
    `It works once, for the next ${minutes(expiresS)}. Type it on the sign-in page, or follow the link below: it opens that page with the code filled in, and you press "Sign in".`,
    "If you did not ask for a code, ignore this letter: nobody can sign in without it, and your password stays as it is.",
  ];
  return {
    to,
    urgent: true,
    subject: "Your Hopewell sign-in code",
    ...letterBodies("Your sign-in code", paragraphs, { label: "Enter the code", url: link }),
  };
}

export function confirmNewEmailEmail({
  to,
  firstName,
  link,
  expiresS,
}: {
  to: string;
  firstName: string;
  link: string;
  expiresS: number;
}): EmailMessage {
  const paragraphs = [
    `Howdy ${firstName},`,
    "You asked to use this address for your Hopewell account. Follow the link below to confirm it: your account keeps its old address until you do.",
    `The link works for ${minutes(expiresS)}, and only while you are signed in to the members' site as the member who asked.`,
    "If you did not ask for this, ignore this letter: nothing changes.",
  ];
  return {
    to,
    urgent: true,
    subject: "Confirm your new Hopewell email address",
    ...letterBodies("Confirm your new email address", paragraphs, {
      label: "Confirm this address",
      url: link,
      lead: "Confirm your new address",
    }),
  };
}

/**
 * Sent to the old address once the change is made, whether the member made it or a manager did,
 * so a change nobody asked for does not go unnoticed.
 */
export function emailChangedEmail({
  to,
  firstName,
  newEmail,
  by,
}: {
  to: string;
  firstName: string;
  newEmail: string;
  by: "member" | "manager";
}): EmailMessage {
  const byManager = by === "manager";
  const change = byManager
    ? `One of the club's managers changed the email address of your Hopewell account to ${newEmail}.`
    : `The email address of your Hopewell account was just changed to ${newEmail}.`;
  const paragraphs = [
    `Howdy ${firstName},`,
    `${change} Letters from the members' site now go there, and you sign in with it.`,
    byManager
      ? "If you did not ask for this, tell the organisers at once."
      : "If this was you, there is nothing more to do. If it was not, tell the organisers at once: someone else may be using your account.",
  ];
  return {
    to,
    subject: byManager
      ? "Your Hopewell email address was changed by a manager"
      : "Your Hopewell email address was changed",
    ...letterBodies("Your email address was changed", paragraphs),
  };
}
