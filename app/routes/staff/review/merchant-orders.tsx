import type { Route } from "./+types/merchant-orders";
import { revalidateAfterConflict } from "~/web/revalidate";
import { Author, EntryPager } from "~/features/review/EventGroups";
import { formatClubTime } from "~/lib/dates";
import { QueuedEventGroups } from "~/features/review/QueuedEventGroups";
import { HandedOut } from "~/features/review/HandedOut";
import { isHandedOutIntent } from "~/features/review/handed-out.form";
import { formatDollars, storedTotalCents } from "~/game/merchant";
import { merchantCurrency } from "~/features/club-facts/merchant/merchant.server";
import { OrderItems } from "~/features/club-facts/merchant/OrderItems";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { readForm } from "~/web/forms/kernel";
import { QueueEntry } from "~/features/review/QueueEntry";
import { requireAccess } from "~/web/guards.server";
import { answerQueueForm } from "~/features/review/queue-actions.server";
import { answerHandedOutForm } from "~/features/review/handed-out.server";
import { loadQueuedReview, orderReview } from "~/features/review/event-reviews.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireAccess(context, request, "staff");
  const [review, currency] = await Promise.all([
    loadQueuedReview(request.url, staff.id, orderReview, (row) => row.id),
    merchantCurrency(),
  ]);
  return { ...review, currency };
}

/** Marking an order handed out (or undoing it); taking an entry, handing it back, setting its status or replying to it. */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = requireAccess(context, request, "staff");
  const values = await readForm(request);
  return isHandedOutIntent(values.intent)
    ? answerHandedOutForm(staff, values)
    : answerQueueForm(staff, "order", values);
}

/** An order's name for screen readers: a member may place two for one event, even in one minute, so it says when and for how much. */
function orderName(order: {
  firstName: string;
  lastName: string;
  createdAt: string | Date;
  totalPrice: string | number;
}): string {
  return `${order.firstName} ${order.lastName}'s order of ${formatClubTime(order.createdAt)} for ${formatDollars(storedTotalCents(order.totalPrice))}`;
}

export default function ViewMerchantOrders({ loaderData, actionData }: Route.ComponentProps) {
  // The page's two kinds of form answer apart: a hand-out answer names its order, a queue answer its entry.
  const handedAnswer = actionData && "orderId" in actionData ? actionData : undefined;
  const queueAnswer = actionData && !("orderId" in actionData) ? actionData : undefined;
  return (
    <QueuedEventGroups
      title="Merchant Orders"
      noun="order"
      review={loaderData}
      shown={loaderData.entries.map((row) => row.id)}
      result={queueAnswer}
      notice={
        handedAnswer?.message && !loaderData.entries.some((row) => row.id === handedAnswer.orderId) ? (
          <p role="alert" className="text-blood">
            {handedAnswer.message}
          </p>
        ) : null
      }
    >
      {loaderData.entries.map((order) => (
        <article key={order.id} className="rounded-md border border-timber/70 p-4">
          <QueueEntry
            entryId={order.id}
            about={orderName(order)}
            queue={loaderData}
            result={queueAnswer}
            lead={<Author firstName={order.firstName} lastName={order.lastName} at={order.createdAt} heading />}
            body={
              // An order is a few lines, read at a glance at the event: shown, not folded away.
              <div>
                <OrderItems
                  order={{ ...order, totalCents: storedTotalCents(order.totalPrice) }}
                  currency={loaderData.currency}
                />
                <HandedOut order={order} name={orderName(order)} answer={handedAnswer} />
              </div>
            }
          />
        </article>
      ))}
      <EntryPager page={loaderData.page} total={loaderData.total} pageSize={loaderData.pageSize} />
    </QueuedEventGroups>
  );
}

/** Someone else took the entry, or a reply's form was spent (409): the queue and its keys are read again. */
export const shouldRevalidate = revalidateAfterConflict;

export const meta: Route.MetaFunction = () => [{ title: "Merchant Orders · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Merchant Orders", "Failed to load orders");
