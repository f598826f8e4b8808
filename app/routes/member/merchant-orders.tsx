import { useState } from "react";
import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/merchant-orders";
import { EventSelect } from "~/features/events/EventSelect";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { SuccessPanel } from "~/components/SuccessPanel";
import { ErrorSummary } from "~/components/ErrorSummary";
import { Asterisk, RequiredNote } from "~/components/ui/Required";
import { RecordLink } from "~/features/my-record/RecordLink";
import { type FieldErrors, fieldErrors, readForm } from "~/web/forms/kernel";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { OrderForm, WHOLE_QUANTITY } from "~/features/submissions/submissions.form";
import { formatDollars } from "~/game/merchant";
import { PriceList } from "~/features/club-facts/merchant/PriceList";
import { soldAt, type OfferedItem } from "~/features/club-facts/merchant/price-list";
import { failSafely } from "~/web/actions.server";
import { requireAccess } from "~/web/guards.server";
import { loadOrderForm, submitOrder } from "~/features/submissions/submissions.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "member");
  return { ...(await loadOrderForm()), submissionKey: crypto.randomUUID() };
}

type ActionData = {
  submitted?: boolean;
  totalCents?: number;
  message?: string;
  errors?: FieldErrors;
  values?: Record<string, string | undefined>;
};

/** The first problem to show at the top: the form's messages (docs/product.md#member-forms), in the order a member meets them. */
function topMessage(errors: FieldErrors): string {
  if (errors.eventId) return SUBMISSION_MESSAGES.selectEvent;
  if (Object.entries(errors).some(([field]) => field.startsWith("qty_"))) return SUBMISSION_MESSAGES.quantity;
  return errors.items ?? errors.submissionKey ?? SUBMISSION_MESSAGES.orderFailed;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const fields = await readForm(request);
  const parsed = OrderForm.safeParse(fields);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return data<ActionData>({ message: topMessage(errors), errors, values: fields }, { status: 400 });
  }
  return failSafely<ActionData>(
    "saving an order",
    { message: SUBMISSION_MESSAGES.orderFailed, values: fields },
    async () => {
      const saved = await submitOrder(user, parsed.data);
      if (saved.outcome === "unknown-event")
        return data(
          {
            message: SUBMISSION_MESSAGES.selectEvent,
            errors: { eventId: SUBMISSION_MESSAGES.selectEvent },
            values: fields,
          },
          { status: 400 },
        );
      if (saved.outcome === "refused-item")
        return data(
          { message: saved.message, errors: { [saved.field]: saved.message }, values: fields },
          { status: 400 },
        );
      return data({ submitted: true, totalCents: saved.totalCents });
    },
  );
}

function parseQuantity(value: string | undefined): number {
  return value && WHOLE_QUANTITY.test(value.trim()) ? Number(value) : 0;
}

type Quantities = Record<string, string>;
const orderTotal = (items: OfferedItem[], quantities: Quantities) =>
  items.reduce((sum, item) => sum + item.priceCents * parseQuantity(quantities[item.key]), 0);
const isBadQuantity = (value: string | undefined) => (value ?? "").trim() !== "" && !WHOLE_QUANTITY.test(value!.trim());
const hasBadQuantity = (items: OfferedItem[], quantities: Quantities) =>
  items.some((item) => isBadQuantity(quantities[item.key]));

/** The page's own check, in the server's order: the event, then the quantities, then the total. */
function checkInPage(form: HTMLFormElement, items: OfferedItem[], quantities: Quantities): string | null {
  if (!new FormData(form).get("eventId")) return SUBMISSION_MESSAGES.selectEvent;
  if (hasBadQuantity(items, quantities)) return SUBMISSION_MESSAGES.quantity;
  if (orderTotal(items, quantities) === 0) return SUBMISSION_MESSAGES.addItem;
  return null;
}

export default function MerchantOrders({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const values = actionData?.values ?? {};
  const { currency } = loaderData;
  const [quantities, setQuantities] = useState<Quantities>(() =>
    Object.fromEntries(loaderData.items.map((item) => [item.key, values[`qty_${item.key}`] ?? ""])),
  );
  // Once an event is chosen, only what is sold there is listed (and sent); before, every item, each limited one saying where.
  const [eventId, setEventId] = useState(values.eventId ?? "");
  const items = eventId ? loaderData.items.filter((item) => soldAt(item, eventId)) : loaderData.items;
  // The page's own refusal, a new object each time so the summary takes focus again.
  const [local, setLocal] = useState<{ message: string } | null>(null);
  // Messages the member has since put right, for the refusal they belong to.
  const [resolved, setResolved] = useState<{ answer: unknown; messages: string[] }>({ answer: null, messages: [] });
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const totalCents = orderTotal(items, quantities);
  const answer = local ?? actionData;
  const isResolved = (message: string) => resolved.answer === answer && resolved.messages.includes(message);
  const candidate = local?.message ?? actionData?.message;
  const message = candidate && !isResolved(candidate) ? candidate : undefined;
  const eventError =
    actionData?.errors?.eventId && !isResolved(SUBMISSION_MESSAGES.selectEvent) ? actionData.errors.eventId : undefined;

  function resolve(...messages: string[]) {
    setResolved((current) => ({
      answer,
      messages: [...(current.answer === answer ? current.messages : []), ...messages],
    }));
  }

  function onQuantity(key: string, value: string) {
    const next = { ...quantities, [key]: value };
    setQuantities(next);
    const fixed = [
      ...(orderTotal(items, next) > 0 ? [SUBMISSION_MESSAGES.addItem] : []),
      ...(hasBadQuantity(items, next) ? [] : [SUBMISSION_MESSAGES.quantity]),
    ];
    if (fixed.length > 0) resolve(...fixed);
  }

  if (actionData?.submitted) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-10">
        <SuccessPanel title="Order Placed!" to="/profile" destination="your profile">
          <p>
            Your total is <strong>{formatDollars(actionData.totalCents ?? 0)}</strong> {currency}. Bring it to the event
            to collect your goods.
          </p>
        </SuccessPanel>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-center text-5xl">Merchant Order</h1>
      <hr className="divider my-6" />
      <Form
        method="post"
        noValidate
        className="panel flex flex-col gap-5"
        onSubmit={(event) => {
          const problem = checkInPage(event.currentTarget, items, quantities);
          setLocal(problem ? { message: problem } : null);
          if (problem) event.preventDefault();
        }}
      >
        <p className="text-dust">
          Order supplies from the travelling merchant before an event. Prices are in {currency}; bring your total to the
          event to collect your goods. <RecordLink kind="order">Your orders so far</RecordLink>, with staff&apos;s
          replies, are in your record.
        </p>
        <RequiredNote>
          Fields marked with an asterisk <Asterisk /> are required, and an order needs at least one item.
        </RequiredNote>
        <ErrorSummary message={message} answer={answer} />
        <input type="hidden" name="submissionKey" value={values.submissionKey ?? loaderData.submissionKey} />
        <EventSelect
          events={loaderData.events}
          defaultValue={values.eventId}
          error={eventError}
          emptyText="No upcoming events"
          required
          onChange={(event) => {
            setEventId(event.currentTarget.value);
            if (event.currentTarget.value) resolve(SUBMISSION_MESSAGES.selectEvent);
          }}
        />
        {items.length === 0 ? (
          <p className="text-dust">The merchant has nothing for sale at this event.</p>
        ) : (
          <PriceList
            items={items}
            quantity={(item) => (
              <>
                <label htmlFor={`qty_${item.key}`} className="sr-only">
                  Quantity of {item.name}
                </label>
                <input
                  id={`qty_${item.key}`}
                  name={`qty_${item.key}`}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={9999}
                  step={1}
                  value={quantities[item.key] ?? ""}
                  placeholder="0"
                  onChange={(event) => onQuantity(item.key, event.currentTarget.value)}
                  aria-invalid={
                    (message === SUBMISSION_MESSAGES.quantity && isBadQuantity(quantities[item.key])) ||
                    (message !== undefined && message === actionData?.errors?.[`qty_${item.key}`])
                      ? true
                      : undefined
                  }
                  className="w-24 rounded-md border border-timber bg-ink px-2 py-1 text-parchment focus:border-brass aria-[invalid=true]:border-blood"
                />
              </>
            )}
          />
        )}
        {/* The list is longer than a screen: the total and the button stay in view at its foot while quantities are typed. */}
        <div className="sticky bottom-0 z-10 -mx-6 -mb-6 flex items-center justify-between gap-4 rounded-b-md border-t border-timber bg-soot/95 px-6 py-3 backdrop-blur">
          <p className="text-lg sm:text-xl" aria-live="polite">
            Total: <strong data-testid="order-total">{formatDollars(totalCents)}</strong>{" "}
            {/* Named in the introduction; a phone's bar keeps to one line. */}
            <span className="hidden text-dust sm:inline">{currency}</span>
          </p>
          <button type="submit" className="btn btn-primary shrink-0 px-4 sm:px-10" disabled={submitting}>
            {submitting ? "Placing order…" : "Place Order"}
          </button>
        </div>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Merchant Order · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Merchant Order", SUBMISSION_MESSAGES.loadFailed);
