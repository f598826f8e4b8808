import { z } from "zod";
import { QUEUE_STATUSES, STAFF_REPLY_MAX } from "~/game/review-queue";
import { isMemberId, isUuid } from "~/lib/ids";
import { textField } from "~/web/forms/kernel";
import { submissionKey } from "~/features/submissions/submissions.form";

/** What staff see after a queue action, and when it cannot be done. */
export const QUEUE_MESSAGES = {
  taken: "You have taken this entry.",
  handedBack: "Handed back: nobody has this entry now.",
  statusSet: "Status saved.",
  replied: "Reply sent. The member reads it on their profile.",
  notFound: "That entry is no longer there.",
  notYours: "Someone else has taken this entry since you opened the page.",
  // The page that says so is already drawn anew (with scripts too): sending again is all it takes, and the words are kept.
  expired:
    "This reply was written on an older copy of the page, so it was not sent. The page is up to date now: please check your reply and send it again.",
  replyRequired: "Please write a reply",
  replyTooLong: `Please keep your reply to ${STAFF_REPLY_MAX.toLocaleString("en-US")} characters or fewer`,
  failed: "That could not be saved. Please try again.",
  unknown: "That action is not available here.",
} as const;

/** An entry's id as its review page posts it: a row's UUID, or "<event id>:<member id>" for costume photos. */
const entryId = z.string().refine((value) => {
  const [event, member, ...rest] = value.split(":");
  if (member === undefined) return isUuid(event);
  return rest.length === 0 && isUuid(event) && isMemberId(member);
}, QUEUE_MESSAGES.notFound);

/** The queue's forms on every review page, told apart by `intent`. */
export const QueueForms = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("take"), entryId }),
  z.object({ intent: z.literal("hand_back"), entryId }),
  z.object({
    intent: z.literal("set_status"),
    entryId,
    status: z.enum(QUEUE_STATUSES, { error: "Please choose a status" }),
  }),
  z.object({
    intent: z.literal("reply"),
    entryId,
    submissionKey,
    body: textField(STAFF_REPLY_MAX, {
      required: QUEUE_MESSAGES.replyRequired,
      tooLong: QUEUE_MESSAGES.replyTooLong,
    }),
  }),
]);
export type QueueInput = z.output<typeof QueueForms>;
export const QUEUE_INTENTS: readonly string[] = ["take", "hand_back", "set_status", "reply"];

/** What a queue action answered, for the entry it was about. */
export type QueueResult = {
  entryId?: string;
  intent?: string;
  ok?: string;
  message?: string;
  errors?: Record<string, string>;
  values?: Record<string, string | undefined>;
};
