import crypto from "node:crypto";
import { choiceOf, type Recipient } from "./audiences.server";
import { messageCopy, previewUnsubscribeUrl } from "./message-email.server";
import type { Compose } from "./messages.form";
import { LEFT_OUT_REASON } from "./send.server";

/** The compose page's preview: the group by name, and the email its first member will read. */
export type ComposePreview = {
  /** The group as the record will name it. */
  label: string;
  /** A digest of the group as previewed: sending checks it is still the same group. */
  checked: string;
  /** The members it will be sent to, by name. */
  recipients: string[];
  /** The members their choices leave out, by name, with why. */
  leftOut: { name: string; reason: string }[];
  /** The email as the first member it is sent to reads it; none when nobody will receive it. */
  email: { to: string; subject: string; html: string; text: string } | null;
};

const nameOf = (member: { firstName: string; lastName: string }) => `${member.firstName} ${member.lastName}`.trim();

/**
 * Who the group is, exactly: a member joining or leaving it, or changing their choices, changes
 * the digest, so a "Send" pressed on an older preview is shown the group again first.
 */
function groupDigest(compose: Compose, recipients: Recipient[]): string {
  const hash = crypto.createHash("sha256").update(`${compose.audience}\n${compose.eventId ?? ""}`);
  for (const recipient of recipients) hash.update(`\n${recipient.id}:${recipient.leftOut ? "out" : "in"}`);
  return hash.digest("base64url");
}

/**
 * The email's HTML part as the page shows it: its body alone (the page has its own document), the
 * template's inline styles dropped (the page's Content-Security-Policy allows no style attributes;
 * the preview's box gives it the email's colours), and its title a heading under the preview's.
 * The body is made only of formattedTextHtml's safe subset and escaped names
 * (message-email.server.ts), so it is safe to put in the page as it is.
 */
export function emailBodyPart(html: string): string {
  const body = /<body[^>]*>([\s\S]*)<\/body>/.exec(html)?.[1] ?? "";
  return body
    .replace(/ style="[^"]*"/g, "")
    .replace(/<h1>/g, "<h3>")
    .replace(/<\/h1>/g, "</h3>");
}

export async function previewOf(
  compose: Compose,
  group: { label: string; recipients: Recipient[] },
): Promise<ComposePreview> {
  const choice = choiceOf(compose.audience);
  const sentTo = group.recipients.filter((recipient) => !recipient.leftOut);
  const first = sentTo[0];
  const copy = first
    ? await messageCopy(
        { subject: compose.subject, body: compose.body, choice, mustReach: compose.mustReach },
        first,
        previewUnsubscribeUrl(first.id, choice),
      )
    : undefined;
  return {
    label: group.label,
    checked: groupDigest(compose, group.recipients),
    recipients: sentTo.map(nameOf),
    leftOut: group.recipients
      .filter((recipient) => recipient.leftOut)
      .map((recipient) => ({ name: nameOf(recipient), reason: LEFT_OUT_REASON[choice] })),
    email:
      first && copy
        ? { to: nameOf(first), subject: copy.subject, html: emailBodyPart(copy.html), text: copy.text }
        : null,
  };
}
