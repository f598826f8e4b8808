import crypto from "node:crypto";
import { asc, desc } from "drizzle-orm";
import { data, redirect } from "react-router";
import { isUuid } from "~/lib/ids";
import { config } from "~/platform/config.server";
import { database } from "~/platform/db/client.server";
import { events } from "~/platform/db/schema";
import { failSafely } from "~/web/actions.server";
import { checkForm, FORM_MESSAGES, type FieldErrors, type FormValues } from "~/web/forms/kernel";
import { previewOf, type ComposePreview } from "./compose-preview.server";
import { ComposeSchema, MESSAGES_MESSAGES, type Compose } from "./messages.form";
import { messageSentWith } from "./record.server";
import { groupOf, sendMessage, sendTest } from "./send.server";

/**
 * The managers' compose page (routes/staff/messages/compose.tsx): one plain form whose buttons
 * preview the message (who it is for, and the email as the first of them reads it), send a test
 * copy to the manager, or send it. The form carries a one-time key made when the page is opened
 * and kept through every preview, so a second press of "Send" sends nothing more.
 */

/** The form as typed, to show again. */
export type ComposeValues = {
  audience: string;
  eventId: string;
  subject: string;
  body: string;
  discord: boolean;
  mustReach: boolean;
  submissionKey: string;
};

/** What the page answers to a press: the form as typed, what was wrong, the preview, or a notice. */
export type ComposeAnswer = {
  values: ComposeValues;
  ok?: string;
  message?: string;
  errors?: FieldErrors;
  preview?: ComposePreview;
};

export type EventChoice = { id: string; title: string; date: string; cancelled: boolean };

/** Whether the club's Discord channel can be posted to: the box is offered only then. */
const discordOffered = () => Boolean(config().discord.webhookUrl);

/** Every event, newest first, upcoming and past (and cancelled ones, said so): a group may be about any. */
async function eventChoices(): Promise<EventChoice[]> {
  const db = await database();
  const rows = await db
    .select({ id: events.id, title: events.title, date: events.date, status: events.status })
    .from(events)
    .orderBy(desc(events.date), asc(events.title));
  return rows.map(({ status, ...event }) => ({ ...event, cancelled: status === "cancelled" }));
}

/** The page's data: the events to choose from, whether Discord is offered, and a new one-time key. */
export async function loadComposePage() {
  return { events: await eventChoices(), discordOffered: discordOffered(), submissionKey: crypto.randomUUID() };
}

function valuesOf(fields: FormValues): ComposeValues {
  return {
    audience: fields.audience ?? "",
    eventId: fields.eventId ?? "",
    subject: fields.subject ?? "",
    body: fields.body ?? "",
    discord: fields.discord === "on" && discordOffered(),
    mustReach: fields.mustReach === "on",
    // A form without a key of its own (a post made by hand) gets a new one to go on with.
    submissionKey: isUuid(fields.submissionKey) ? fields.submissionKey : crypto.randomUUID(),
  };
}

const refusal = (values: ComposeValues, errors: FieldErrors) =>
  data<ComposeAnswer>({ values, errors, message: MESSAGES_MESSAGES.fix }, { status: 400 });

type Checked =
  | { ok: false; answer: ReturnType<typeof refusal> }
  | { ok: true; compose: Compose; values: ComposeValues; preview: ComposePreview };

/** The form checked field by field, then its group found: the message and its preview, or the refusal. */
async function checkCompose(fields: FormValues): Promise<Checked> {
  const values = valuesOf(fields);
  const form = checkForm(ComposeSchema, fields);
  if (!form.ok) return { ok: false, answer: refusal(values, form.errors) };
  const compose: Compose = { ...form.data, discord: values.discord };
  const group = await groupOf(compose);
  if (!group.ok) return { ok: false, answer: refusal(values, { [group.field]: group.message }) };
  return { ok: true, compose, values, preview: await previewOf(compose, group) };
}

/** "Preview": who the message is for, by name, and the email as the first of them will read it. */
export async function previewMessage(fields: FormValues) {
  const checked = await checkCompose(fields);
  if (!checked.ok) return checked.answer;
  return data<ComposeAnswer>({ values: checked.values, preview: checked.preview });
}

/** "Send a test to me": a copy to the manager's own address only, the form and preview kept. */
export async function sendTestMessage(
  manager: { id: string; email: string; firstName: string; lastName: string },
  fields: FormValues,
) {
  const failure = { values: valuesOf(fields), message: MESSAGES_MESSAGES.testFailed };
  return failSafely<ComposeAnswer>("sending a test message", failure, async () => {
    const checked = await checkCompose(fields);
    if (!checked.ok) return checked.answer;
    await sendTest(manager, checked.compose);
    return data<ComposeAnswer>({
      values: checked.values,
      preview: checked.preview,
      ok: MESSAGES_MESSAGES.testSent(manager.email),
    });
  });
}

/** The message's record page, saying what the press did. */
export function recordAddress(messageId: string, notice: "sent" | "already-sent"): string {
  return `/tools/messages/${messageId}?${new URLSearchParams({ notice })}`;
}

/**
 * "Send to N members": sent only to the group the manager saw in the preview (the form carries
 * its digest): a group that changed since (a member joined, or changed their choices) is shown
 * again instead. A key already used leads to the message it sent.
 */
export async function sendComposedMessage(manager: { id: string }, fields: FormValues) {
  const failure = { values: valuesOf(fields), message: MESSAGES_MESSAGES.sendFailed };
  return failSafely<ComposeAnswer>("sending a message", failure, () => send(manager, fields));
}

async function send(manager: { id: string }, fields: FormValues) {
  const values = valuesOf(fields);
  if (!isUuid(fields.submissionKey))
    return data<ComposeAnswer>({ values, message: FORM_MESSAGES.unreadable }, { status: 400 });
  const sentBefore = await messageSentWith(fields.submissionKey);
  if (sentBefore) throw redirect(recordAddress(sentBefore, "already-sent"), 303);
  const checked = await checkCompose(fields);
  if (!checked.ok) return checked.answer;
  const { preview } = checked;
  const refused = (message: string, status: number) =>
    data<ComposeAnswer>({ values: checked.values, preview, message }, { status });
  if (preview.recipients.length + preview.leftOut.length === 0) return refused(MESSAGES_MESSAGES.nobody, 400);
  if (fields.checked !== preview.checked)
    return refused(fields.checked ? MESSAGES_MESSAGES.changedMeanwhile : MESSAGES_MESSAGES.checkFirst, 409);
  const outcome = await sendMessage(manager, { ...checked.compose, submissionKey: fields.submissionKey });
  switch (outcome.outcome) {
    case "sent":
      throw redirect(recordAddress(outcome.messageId, "sent"), 303);
    case "already-sent":
      throw redirect(recordAddress(outcome.messageId, "already-sent"), 303);
    case "nobody":
      return refused(MESSAGES_MESSAGES.nobody, 400);
    case "refused":
      return refusal(checked.values, { [outcome.field]: outcome.message });
  }
}
