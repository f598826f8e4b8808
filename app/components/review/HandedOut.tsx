import { Form, useNavigation } from "react-router";
import { formatClubTime } from "~/lib/dates";
import type { HandedOutAnswer } from "~/server/handed-out.server";


/**
 * An order's hand-out line on the orders review: "Handed out <when> by <whom>" with an undo,
 * or a button marking it handed out. A plain form posting to the page, so it works without
 * JavaScript; the page's action checks the viewer again.
 */
export function HandedOut({ order, owner, answer }: { order: { id: string; handedOutAt: string | Date | null; handedOutBy: string | null }; owner: string; answer?: HandedOutAnswer }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("orderId") === order.id;
  const mine = answer?.orderId === order.id ? answer : undefined;
  return (
    <Form method="post" className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
      <input type="hidden" name="orderId" value={order.id} />
      {order.handedOutAt ? (
        <>
          <p className="font-bold text-brass" data-testid="handed-out">{`Handed out ${formatClubTime(order.handedOutAt)} by ${order.handedOutBy ?? "a former member"}`}</p>
          <button type="submit" name="intent" value="undo_hand_out" className="btn btn-secondary text-sm" disabled={busy}>
            Undo<span className="sr-only">{` handed out for ${owner}'s order`}</span>
          </button>
        </>
      ) : (
        <button type="submit" name="intent" value="hand_out" className="btn btn-secondary text-sm" disabled={busy}>
          Mark handed out<span className="sr-only">{`: ${owner}'s order`}</span>
        </button>
      )}
      {mine?.ok || mine?.message ? (
        <p role={mine.message ? "alert" : "status"} className={mine.message ? "w-full text-blood" : "w-full text-dust"}>
          {mine.message ?? mine.ok}
        </p>
      ) : null}
    </Form>
  );
}
