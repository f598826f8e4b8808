import crypto from "node:crypto";
import type { MessageChoice } from "~/game/messages";
import { siteOrigin } from "~/identity/auth.server";
import { formattedTextHtml } from "~/lib/formatted-text.server";
import { database } from "~/platform/db/client.server";
import { escapeHtml } from "~/platform/html.server";
import { siteSecret } from "~/platform/secrets.server";
import { FIELD_PATTERN, MESSAGE_FIELDS, type MessageField } from "./messages.form";

/** A member as a message names them. */
export type Addressee = { id: string; firstName: string; lastName: string };

/** A message's copy for one member: its subject, plain text and HTML, and the way to stop such messages. */
export type MessageCopy = {
  subject: string;
  text: string;
  html: string;
  /** The one-click unsubscribe address (RFC 8058), also the footer's link. */
  unsubscribeUrl: string;
};

const CHOICE_NAMES: Record<MessageChoice, string> = {
  news: "club news",
  events: "messages about events you hold a place at",
};

/** The fields of `text` filled in for `member`, each value passed through `escape` (HTML's or none). */
function filledIn(text: string, member: Addressee, escape: (value: string) => string): string {
  return text.replace(FIELD_PATTERN, (whole, name: string) => {
    const field = MESSAGE_FIELDS[name.toLowerCase().replace(/\s+/g, " ") as MessageField];
    return field ? escape(field(member)) : whole;
  });
}

/**
 * Fields are filled in after the body is made into HTML, each name escaped: a member's name is
 * their own words and is never read as formatting or markup. The placeholders survive the
 * formatter as they are plain text.
 */
function bodyHtml(body: string, member: Addressee): string {
  return filledIn(formattedTextHtml(body), member, escapeHtml);
}

const UNSUBSCRIBE_SECRET = "messages_unsubscribe_secret";

/**
 * The token that lets an unsubscribe address change this member's choice and no other: a MAC of
 * the member and the choice under a secret of the site's own. Nobody can make one for another
 * member without the secret; the address needs no sign-in.
 */
export async function unsubscribeToken(memberId: string, choice: MessageChoice): Promise<string> {
  const secret = await siteSecret(await database(), UNSUBSCRIBE_SECRET);
  return crypto.createHmac("sha256", secret).update(`${memberId}:${choice}`).digest("base64url");
}

/** Whether `token` is this member's for this choice (compared in constant time). */
export async function isUnsubscribeToken(memberId: string, choice: MessageChoice, token: string): Promise<boolean> {
  const expected = Buffer.from(await unsubscribeToken(memberId, choice));
  const given = Buffer.from(token);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

export async function unsubscribeUrl(memberId: string, choice: MessageChoice): Promise<string> {
  const query = new URLSearchParams({ member: memberId, choice, token: await unsubscribeToken(memberId, choice) });
  return `${siteOrigin()}/unsubscribe?${query}`;
}

/**
 * The subject of a member's copy, in the email and under Notices: a name is put in as one line,
 * so no member's name can break the subject into headers of its own.
 */
export function copySubject(subject: string, member: Addressee): string {
  return filledIn(subject, member, (value) => value.replace(/[\r\n]+/g, " "));
}

/**
 * The unsubscribe address a preview shows in the member's copy: theirs, but with a token that is
 * no one's, so the manager reading the preview holds no link that changes the member's choice.
 */
export function previewUnsubscribeUrl(memberId: string, choice: MessageChoice): string {
  return `${siteOrigin()}/unsubscribe?${new URLSearchParams({ member: memberId, choice, token: "preview" })}`;
}

/** Said in the footer of a message that says an event is moved or cancelled: no choice left the member out. */
export const MUST_REACH_FOOTER =
  "This message says an event is moved or cancelled, so it reaches everyone in the event's group, whatever they chose.";

/** The copy of a message one member receives, and sees under Notices (`link`: another unsubscribe address, for a preview). */
export async function messageCopy(
  message: { subject: string; body: string; choice: MessageChoice; mustReach?: boolean },
  member: Addressee,
  link?: string,
): Promise<MessageCopy> {
  link ??= await unsubscribeUrl(member.id, message.choice);
  const subject = copySubject(message.subject, member);
  const reaches = message.mustReach ? ` ${MUST_REACH_FOOTER}` : "";
  const why = `You receive this as a member of Hopewell.${reaches} To stop ${CHOICE_NAMES[message.choice]}, unsubscribe: ${link}`;
  const text = `${filledIn(message.body, member, (value) => value)}\n\n--\n${why}\nOr choose what you receive on your profile: ${siteOrigin()}/profile\n`;
  const html = `<!doctype html><html lang="en"><body style="margin:0;background:#efe4cc;color:#241a10;font-family:Georgia,serif;font-size:16px;line-height:1.6">
<div style="max-width:560px;margin:0 auto;padding:32px 24px">
<h1 style="font-size:24px;color:#5c230f;margin:0 0 24px">${escapeHtml(subject)}</h1>
${bodyHtml(message.body, member)}
<p style="margin:32px 0 0;font-size:13px;color:#5a4530">You receive this as a member of Hopewell.${escapeHtml(reaches)} <a href="${escapeHtml(link)}">Unsubscribe from ${escapeHtml(CHOICE_NAMES[message.choice])}</a>, or <a href="${escapeHtml(`${siteOrigin()}/profile`)}">choose what you receive</a>.</p>
</div></body></html>`;
  return { subject, text, html, unsubscribeUrl: link };
}

/** The message's body as a member reads it on the site (Notices): the HTML, their fields filled in. */
export function noticeHtml(body: string, member: Addressee): string {
  return bodyHtml(body, member);
}

/** The headers that let a mail program offer "Unsubscribe" and do it in one press (RFC 2369, RFC 8058). */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}
