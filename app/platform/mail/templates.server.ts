import { escapeHtml } from "../html.server";
import type { EmailMessage } from "../outbox/outbox.server";

const SIGNATURE = "Hopewell · a western survival and horror larp";

/** A plain, readable HTML letter in the site's colours; every email has a plain-text twin (letterBodies). */
function layout(title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join("");
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#7f3116;color:#efe4cc;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#5a4530">If the button does not work, copy this address into your browser:<br>${escapeHtml(action.url)}</p>`
    : "";
  return `<!doctype html><html lang="en"><body style="margin:0;background:#efe4cc;color:#241a10;font-family:Georgia,serif;font-size:16px;line-height:1.6">
<div style="max-width:560px;margin:0 auto;padding:32px 24px">
<h1 style="font-size:24px;color:#5c230f;margin:0 0 24px">${escapeHtml(title)}</h1>${body}${button}
<p style="margin:32px 0 0;font-size:13px;color:#5a4530">${SIGNATURE}</p>
</div></body></html>`;
}

/**
 * An email's two bodies, shared by every template module: the plain text (the paragraphs, the
 * link on a line of its own after `lead`, the signature) and its HTML twin (the link as a button
 * named `label`). `lead` is the button's label unless given.
 */
export function letterBodies(
  title: string,
  paragraphs: string[],
  link?: { label: string; url: string; lead?: string },
): Pick<EmailMessage, "text" | "html"> {
  const linkLine = link ? `\n\n${link.lead ?? link.label}: ${link.url}` : "";
  return {
    text: `${paragraphs.join("\n\n")}${linkLine}\n\n${SIGNATURE}\n`,
    html: layout(title, paragraphs, link && { label: link.label, url: link.url }),
  };
}

export function passwordResetEmail({
  to,
  firstName,
  link,
}: {
  to: string;
  firstName: string;
  link: string;
}): EmailMessage {
  const paragraphs = [
    `Howdy ${firstName},`,
    "Someone, hopefully you, asked to reset the password for your Hopewell account. Follow the link below within the hour to choose a new one.",
    "If you did not ask for this, ignore this letter: your password stays as it is.",
  ];
  return {
    to,
    urgent: true,
    subject: "Reset your Hopewell password",
    ...letterBodies("Reset your password", paragraphs, {
      label: "Choose a new password",
      url: link,
      lead: "Reset your password",
    }),
  };
}

/** Tells the member their password changed, so a change they did not make does not go unnoticed. */
export function passwordChangedEmail({
  to,
  firstName,
  resetLink,
}: {
  to: string;
  firstName: string;
  resetLink: string;
}): EmailMessage {
  const paragraphs = [
    `Howdy ${firstName},`,
    "The password for your Hopewell account was just changed on the members' site.",
    "If this was you, there is nothing more to do. If it was not, reset your password now with the link below, then tell the organisers.",
  ];
  return {
    to,
    subject: "Your Hopewell password was changed",
    ...letterBodies("Your password was changed", paragraphs, { label: "Reset your password", url: resetLink }),
  };
}

export function acceptanceEmail({
  to,
  firstName,
  asCast,
}: {
  to: string;
  firstName: string;
  asCast: boolean;
}): EmailMessage {
  const paragraphs = [
    `Dear ${firstName},`,
    asCast
      ? "Your application has been accepted: welcome to the Hopewell cast. You will soon be bringing the town and the things in the dark to life."
      : "Your application has been accepted: welcome to Hopewell. You can now build your character on the members' site and buy a ticket for an upcoming event.",
    "Remember to send a photo of your costume at least two weeks before your first event. We look forward to seeing you on the frontier.",
  ];
  return {
    to,
    subject: "Welcome to Hopewell: your application has been accepted",
    ...letterBodies("Welcome to Hopewell", paragraphs),
  };
}
