import { z } from "zod";
import { AUDIENCE_KINDS, type AudienceKind } from "~/game/messages";
import { FORMATTED_TEXT_MAX } from "~/lib/formatted-text.limits";
import { countOf } from "~/lib/plural";
import { textField } from "~/web/forms/kernel";

/** The managers' messages to members: what the compose form takes, and what it says. */

export const SUBJECT_MAX = 150;

/** The fields a message may hold, as written in it, and what each becomes for a member. */
export const MESSAGE_FIELDS = {
  "first name": (member: { firstName: string; lastName: string }) => member.firstName,
  "last name": (member: { firstName: string; lastName: string }) => member.lastName,
} as const;
export type MessageField = keyof typeof MESSAGE_FIELDS;
const FIELD_NAMES = Object.keys(MESSAGE_FIELDS) as MessageField[];
/** `{first name}`, `{ First Name }`: a field as a manager may type it. */
export const FIELD_PATTERN = /\{\s*([^{}\n]{1,40}?)\s*\}/g;

/** The groups as the compose form offers them; the event's groups also name the event. */
export const AUDIENCES: Record<AudienceKind, { label: string; forEvent: boolean }> = {
  all: { label: "All members", forEvent: false },
  players: { label: "Players", forEvent: false },
  cast: { label: "Cast", forEvent: false },
  applicants: { label: "Applicants", forEvent: false },
  paid: { label: "Holding a paid place for the event", forEvent: true },
  attendance: { label: "On the event's attendance list", forEvent: true },
  "no-pel": { label: "Attended the event and sent no post-event letter", forEvent: true },
  "no-costume": { label: "Registered for the event with no approved costume photo", forEvent: true },
};

/** The compose form's box for a message members cannot switch off (features/messages: mustReach). */
export const MUST_REACH_LABEL = "It says the event is moved or cancelled";
export const MUST_REACH_HINT =
  "For the event's groups only: it reaches every member of the group, whatever they chose to receive.";

export const MESSAGES_MESSAGES = {
  subject: `Write a subject of one line, up to ${SUBJECT_MAX} characters.`,
  body: `Write the message, up to ${FORMATTED_TEXT_MAX.toLocaleString("en-US")} characters.`,
  unknownField: (field: string) =>
    `{${field}} is not a field a message can hold: write ${FIELD_NAMES.map((name) => `{${name}}`).join(" or ")}.`,
  audience: "Choose who the message is for.",
  event: "Choose the event this group is about.",
  nobody: "Nobody is in this group: the message was not sent.",
  changedMeanwhile: "The group changed while you were writing: check the recipients below, then send again.",
  alreadySent: "This message was sent already: a second press sends nothing more.",
  sent: (sent: number, leftOut: number) => `Sent to ${countOf(sent, "member")}; ${leftOut} left out by their choices.`,
  testSent: (address: string) => `A test copy is on its way to ${address}.`,
  fix: "The message needs a change: see the marked fields.",
  checkFirst: "Check who the message is for below, then send it.",
  sendFailed: "The message could not be sent. Please try again.",
  testFailed: "The test copy could not be sent. Please try again.",
  notFound: "There is no such message: the address may be mistyped.",
  loadFailed: "The messages could not be loaded. Please try again in a moment.",
} as const;

/** What the compose form says under the message: the fields a message may hold. */
export const FIELDS_HINT = `Write ${FIELD_NAMES.map((name) => `{${name}}`).join(" or ")} to put in each member's own name.`;

/** The fields written in `text` that a message cannot hold. */
export function unknownFields(text: string): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(FIELD_PATTERN)) {
    const name = match[1]!.toLowerCase().replace(/\s+/g, " ");
    if (!(FIELD_NAMES as string[]).includes(name)) unknown.add(match[1]!);
  }
  return [...unknown];
}

const withKnownFields = (text: string, context: z.RefinementCtx) => {
  const [first] = unknownFields(text);
  if (first !== undefined) context.addIssue({ code: "custom", message: MESSAGES_MESSAGES.unknownField(first) });
};

/**
 * A subject is one line: a line break in it would let a subject write mail headers of its own,
 * so it is refused, with the field's message, not silently joined.
 */
export const SubjectSchema = textField(SUBJECT_MAX, {
  required: MESSAGES_MESSAGES.subject,
  tooLong: MESSAGES_MESSAGES.subject,
})
  .refine((subject) => !/[\r\n\u2028\u2029]/.test(subject), MESSAGES_MESSAGES.subject)
  .superRefine(withKnownFields);

export const BodySchema = textField(FORMATTED_TEXT_MAX, {
  required: MESSAGES_MESSAGES.body,
  tooLong: MESSAGES_MESSAGES.body,
}).superRefine(withKnownFields);

/** Who a message is for: a group, and the event when the group is about one. */
export const AudienceSchema = z
  .object({
    audience: z.enum(AUDIENCE_KINDS, { error: MESSAGES_MESSAGES.audience }),
    eventId: z
      .string()
      .optional()
      .transform((value) => value || undefined),
  })
  .superRefine((value, context) => {
    if (AUDIENCES[value.audience].forEvent && !value.eventId)
      context.addIssue({ code: "custom", path: ["eventId"], message: MESSAGES_MESSAGES.event });
  })
  .transform((value) => ({
    audience: value.audience,
    eventId: AUDIENCES[value.audience].forEvent ? (value.eventId ?? null) : null,
  }));
export type Audience = z.output<typeof AudienceSchema>;

const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on");

/**
 * The compose form: the message and its group. `discord` and `mustReach` are checkboxes; a message
 * must reach its members only when it is about an event (its group is one of the event's).
 */
export const ComposeSchema = z
  .object({ subject: SubjectSchema, body: BodySchema, discord: checkbox, mustReach: checkbox })
  .and(AudienceSchema)
  .transform((compose) => ({ ...compose, mustReach: compose.mustReach && AUDIENCES[compose.audience].forEvent }));
export type Compose = z.output<typeof ComposeSchema>;
