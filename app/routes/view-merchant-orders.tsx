import type { Route } from "./+types/view-merchant-orders";
import { Author, EntryPager, EventGroups } from "~/components/EventGroups";
import { CURRENCY_NAME, formatDollars, merchantItem } from "~/game/merchant";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { requireAccess } from "~/server/guards.server";
import { loadReview, reviewQuery, orderReview } from "~/server/reviews.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "staff");
  return loadReview(reviewQuery(request.url), orderReview);
}

export default function ViewMerchantOrders({ loaderData }: Route.ComponentProps) {
  return (
    <EventGroups title="Merchant Orders" noun="order" groups={loaderData.groups} groupsPage={loaderData.groupsPage} groupsLastPage={loaderData.groupsLastPage} open={loaderData.open} total={loaderData.total}>
      {loaderData.entries.map((order) => (
        <article key={order.id} className="rounded-md border border-timber/70 p-4">
          <Author firstName={order.firstName} lastName={order.lastName} at={order.createdAt} />
          <ul className="mt-2">
            {Object.entries(order.items).map(([key, quantity]) => (
              <li key={key}>{`${quantity} × ${merchantItem(key)?.name ?? key}`}</li>
            ))}
          </ul>
          <p className="mt-2 font-bold">{`Total: ${formatDollars(Math.round(Number(order.totalPrice) * 100))} ${CURRENCY_NAME}`}</p>
        </article>
      ))}
      <EntryPager page={loaderData.page} total={loaderData.total} pageSize={loaderData.pageSize} />
    </EventGroups>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Merchant Orders · Hopewell" }];

/** A failed read shows the page's own message (logged once by handleError). */
export const ErrorBoundary = pageErrorBoundary("Merchant Orders", "Failed to load orders");
