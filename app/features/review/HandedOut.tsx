import { Form, useNavigation } from "react-router";
import { SubmitButton } from "~/components/ui/SubmitButton";
import { useActionAt } from "./QueueControls";
import { formatClubTime } from "~/lib/dates";
import type { HandedOutAnswer } from "./handed-out.server";

/**
 * An order's hand-out line on the orders review: "Handed out <when> by <whom>" with an undo,
 * or a button marking it handed out. A plain form posting to the page, so it works without
 * JavaScript (the answer opens at this line); the page's action checks the viewer again. One
 * button either way, so pressing it leaves the keyboard on it as it turns into the other.
 * `name` names the order for screen readers ("Ada Fox's order of …").
 */
export function HandedOut({
  order,
  name,
  answer,
}: {
  order: { id: string; handedOutAt: string | Date | null; handedOutBy: string | null };
  name: string;
  answer?: HandedOutAnswer;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("orderId") === order.id;
  const mine = answer?.orderId === order.id ? answer : undefined;
  const handedOut = order.handedOutAt !== null;
  const anchor = `handed-out-${order.id}`;
  const actionAt = useActionAt(anchor);
  return (
    <Form
      id={anchor}
      method="post"
      action={actionAt}
      preventScrollReset
      className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1"
    >
      <input type="hidden" name="orderId" value={order.id} />
      {order.handedOutAt ? (
        <p
          className="font-bold text-brass"
          data-testid="handed-out"
        >{`Handed out ${formatClubTime(order.handedOutAt)} by ${order.handedOutBy ?? "a former member"}`}</p>
      ) : null}
      <SubmitButton
        name="intent"
        value={handedOut ? "undo_hand_out" : "hand_out"}
        className="btn btn-secondary text-sm"
        busy={busy}
      >
        {handedOut ? "Undo" : "Mark handed out"}
        <span className="sr-only">{handedOut ? ` handed out for ${name}` : `: ${name}`}</span>
      </SubmitButton>
      {mine?.ok || mine?.message ? (
        <p role={mine.message ? "alert" : "status"} className={mine.message ? "w-full text-blood" : "w-full text-dust"}>
          {mine.message ?? mine.ok}
        </p>
      ) : null}
    </Form>
  );
}
