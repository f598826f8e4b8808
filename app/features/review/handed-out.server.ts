import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { data } from "react-router";
import { checkForm, type FormValues } from "~/web/forms/kernel";
import { HANDED_OUT_MESSAGES, HandedOutForm } from "./handed-out.form";
import { failSafely } from "~/web/actions.server";
import { isUuid } from "~/lib/ids";
import type { SessionUser } from "~/lib/navigation";
import { audit } from "~/platform/audit.server";
import { database } from "~/platform/db/client.server";
import { merchantOrders } from "~/platform/db/schema";

/**
 * Marks a merchant order as handed out at the event (the goods given, the money taken), or
 * undoes a mark made by mistake; who did it and when is kept on the order and in the audit log.
 * Marking an order already marked (two staff at one table, a form sent twice) changes nothing
 * and writes no second row. Null when there is no such order (in `within.eventId`, when given).
 */
export async function setHandedOut(
  staff: SessionUser,
  orderId: string,
  handedOut: boolean,
  within: { eventId?: string } = {},
): Promise<{ eventId: string; userId: string; changed: boolean } | null> {
  if (!isUuid(orderId) || (within.eventId !== undefined && !isUuid(within.eventId))) return null;
  const db = await database();
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({ eventId: merchantOrders.eventId, userId: merchantOrders.userId })
      .from(merchantOrders)
      .where(
        and(eq(merchantOrders.id, orderId), within.eventId ? eq(merchantOrders.eventId, within.eventId) : undefined),
      );
    if (!order) return null;
    const changed = await tx
      .update(merchantOrders)
      .set(handedOut ? { handedOutAt: new Date(), handedOutBy: staff.id } : { handedOutAt: null, handedOutBy: null })
      .where(
        and(
          eq(merchantOrders.id, orderId),
          handedOut ? isNull(merchantOrders.handedOutAt) : isNotNull(merchantOrders.handedOutAt),
        ),
      )
      .returning({ id: merchantOrders.id });
    if (changed.length === 0) return { ...order, changed: false };
    await audit(tx, {
      actorId: staff.id,
      action: handedOut ? "order.hand_out" : "order.undo_hand_out",
      subjectId: order.userId,
      details: { orderId, eventId: order.eventId },
    });
    return { ...order, changed: true };
  });
}

/** What marking an order answered, for the order it was about. */
export type HandedOutAnswer = { orderId?: string; ok?: string; message?: string };

/** The orders review's "Mark handed out" and "Undo" buttons: checked, done and answered. */
export async function answerHandedOutForm(staff: SessionUser, values: FormValues) {
  const form = checkForm(HandedOutForm, values);
  const orderId = values.orderId;
  if (!form.ok) return data<HandedOutAnswer>({ orderId, message: HANDED_OUT_MESSAGES.noSuchOrder }, { status: 400 });
  return failSafely<HandedOutAnswer>(
    "marking an order handed out",
    { orderId, message: HANDED_OUT_MESSAGES.failed },
    async () => {
      const handOut = form.data.intent === "hand_out";
      const marked = await setHandedOut(staff, form.data.orderId, handOut);
      if (!marked) return data({ orderId, message: HANDED_OUT_MESSAGES.noSuchOrder }, { status: 404 });
      return data({ orderId, ok: handOut ? HANDED_OUT_MESSAGES.handedOut : HANDED_OUT_MESSAGES.undone });
    },
  );
}
