// What staff do with an entry of a review queue: take it, hand it back, set its status or reply.
import { and, eq } from "drizzle-orm";
import { data } from "react-router";
import { type QueueKind, REPLY_KINDS, type ReplyKind } from "~/game/review-queue";
import type { SessionUser } from "~/lib/navigation";
import { audit } from "~/platform/audit.server";
import { wroteTo } from "~/platform/db/changes.server";
import { database } from "~/platform/db/client.server";
import { reviewQueue } from "~/platform/db/schema";
import { failSafely, type ActionAnswer } from "~/web/actions.server";
import { checkForm, type FormValues } from "~/web/forms/kernel";
import { QUEUE_INTENTS, QUEUE_MESSAGES, QueueForms, type QueueInput, type QueueResult } from "./review-queue.form";
import { markAnswered, ownerOf, setState } from "./review-queue.server";
import { saveReply } from "./staff-replies.server";

export type QueueOutcome =
  { ok: true } | { ok: false; status: number; problem: "notFound" | "notYours" | "expired" | "unknown" };

/**
 * Takes an entry, hands it back, sets its status or replies to it, and audits that, in one
 * transaction. The entry's row is locked so two staff members acting at once leave one answer.
 */
export async function queueAction(staff: SessionUser, kind: QueueKind, input: QueueInput): Promise<QueueOutcome> {
  if (input.intent === "reply" && !(REPLY_KINDS as readonly string[]).includes(kind))
    return { ok: false, status: 400, problem: "unknown" };
  const db = await database();
  const outcome = await db.transaction(async (tx): Promise<QueueOutcome> => {
    const userId = await ownerOf(tx, kind, input.entryId);
    if (!userId) return { ok: false, status: 404, problem: "notFound" } as const;
    const [current] = await tx
      .select({
        status: reviewQueue.status,
        assigneeId: reviewQueue.assigneeId,
      })
      .from(reviewQueue)
      .where(and(eq(reviewQueue.kind, kind), eq(reviewQueue.entryId, input.entryId)))
      .for("update");
    const before = current ?? { status: "new" as const, assigneeId: null };
    const details = { kind, entryId: input.entryId, from: before.status };
    if (input.intent === "take") {
      await setState(tx, kind, input.entryId, userId, {
        status: "in_progress",
        assigneeId: staff.id,
      });
      await audit(tx, {
        actorId: staff.id,
        action: "queue.take",
        subjectId: userId,
        details: {
          ...details,
          to: "in_progress",
          previousAssignee: before.assigneeId,
        },
      });
    } else if (input.intent === "hand_back") {
      if (before.assigneeId !== null && before.assigneeId !== staff.id)
        return { ok: false, status: 409, problem: "notYours" } as const;
      const status = before.status === "in_progress" ? "new" : before.status;
      await setState(tx, kind, input.entryId, userId, {
        status,
        assigneeId: null,
      });
      await audit(tx, {
        actorId: staff.id,
        action: "queue.hand_back",
        subjectId: userId,
        details: { ...details, to: status },
      });
    } else if (input.intent === "set_status") {
      await setState(tx, kind, input.entryId, userId, {
        status: input.status,
        assigneeId: before.assigneeId,
      });
      await audit(tx, {
        actorId: staff.id,
        action: "queue.set_status",
        subjectId: userId,
        details: { ...details, to: input.status },
      });
    } else {
      const saved = await saveReply(tx, {
        kind: kind as ReplyKind,
        entryId: input.entryId,
        userId,
        authorId: staff.id,
        body: input.body,
        submissionKey: input.submissionKey,
      });
      // The same form sent again: its reply is already there, and already audited.
      if (saved === "already") return { ok: true } as const;
      if (saved === "expired") return { ok: false, status: 409, problem: "expired" } as const;
      await markAnswered(tx, kind, input.entryId, userId);
      await audit(tx, {
        actorId: staff.id,
        action: "queue.reply",
        subjectId: userId,
        details: {
          ...details,
          to: "answered",
          replyId: saved.id,
          length: input.body.length,
        },
      });
    }
    return { ok: true } as const;
  });
  // The page this action returns to reads the queue's kept counts straight away.
  if (outcome.ok) wroteTo("review_queue");
  return outcome;
}

/**
 * A review page's answer to one of the queue's forms (already read): the outcome for the
 * entry it was about, with the message staff see there, or the form's errors (400).
 */
export async function answerQueueForm(
  staff: SessionUser,
  kind: QueueKind,
  values: FormValues,
): Promise<ActionAnswer<QueueResult>> {
  const form = checkForm(QueueForms, values);
  const { entryId, intent } = values;
  if (!form.ok) {
    if (!QUEUE_INTENTS.includes(intent ?? ""))
      return data({ entryId, message: QUEUE_MESSAGES.unknown }, { status: 400 });
    return data(
      {
        entryId,
        intent,
        message:
          form.errors.body ??
          form.errors.status ??
          form.errors.entryId ??
          form.errors.submissionKey ??
          QUEUE_MESSAGES.failed,
        errors: form.errors,
        values,
      },
      { status: 400 },
    );
  }
  const input = form.data;
  return failSafely<QueueResult>(
    "changing a review queue entry",
    { entryId, intent, message: QUEUE_MESSAGES.failed, values },
    async () => {
      const outcome = await queueAction(staff, kind, input);
      if (!outcome.ok)
        return data({ entryId, intent, message: QUEUE_MESSAGES[outcome.problem], values }, { status: outcome.status });
      const done = {
        take: QUEUE_MESSAGES.taken,
        hand_back: QUEUE_MESSAGES.handedBack,
        set_status: QUEUE_MESSAGES.statusSet,
        reply: QUEUE_MESSAGES.replied,
      }[input.intent];
      return data({ entryId, intent, ok: done });
    },
  );
}
