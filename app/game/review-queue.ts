/**
 * The review queues (issue 16, part 3): every entry on a staff review page is new, in progress
 * (someone has taken it) or answered. An entry with no queue row is new.
 */
export const QUEUE_KINDS = ["pel", "order", "research", "letter", "costume"] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

export const QUEUE_STATUSES = ["new", "in_progress", "answered"] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

export const QUEUE_STATUS_LABELS: Record<QueueStatus, string> = {
  new: "New",
  in_progress: "In progress",
  answered: "Answered",
};

/** Where an entry stands in its queue, with the name of whoever has taken it. */
export type QueueState = {
  status: QueueStatus;
  assigneeId: string | null;
  assigneeName: string | null;
};

/** An entry without a queue row: new, and nobody's. */
export const NEW_QUEUE_STATE: QueueState = { status: "new", assigneeId: null, assigneeName: null };

/** Kinds a staff member can write a reply to; letters and costumes have their own answers. */
export const REPLY_KINDS = ["pel", "order", "research"] as const satisfies readonly QueueKind[];
export type ReplyKind = (typeof REPLY_KINDS)[number];

/** What the member's profile calls each kind of entry a reply is about. */
export const QUEUE_KIND_LABELS: Record<QueueKind, string> = {
  pel: "Post-event letter",
  order: "Merchant order",
  research: "Research paper",
  letter: "Letter",
  costume: "Costume photos",
};

/** The longest reply staff may write. */
export const STAFF_REPLY_MAX = 5_000;
