import { Form } from "react-router";
import { PlaceInOrder, TickBox } from "../ListRowControls";
import { Field, FieldError } from "~/components/ui/Field";
import { PreviewAndSave } from "../PreviewAndSave";
import type { EventChoice, MerchantAnswer, MerchantRow } from "./merchant-page.server";
import { PriceList, saleEventName } from "./PriceList";

const BLANK: Omit<MerchantRow, "position"> = {
  key: "",
  name: "",
  price: "",
  unit: "",
  retired: false,
  sold: "every",
  events: [],
};

/** The price list as one form: the currency's name, a fieldset an item, then a blank one to add an item. */
export function MerchantForm({
  currency,
  rows,
  events,
  version,
  answer,
  busy,
}: {
  currency: string;
  rows: MerchantRow[];
  events: EventChoice[];
  version: number;
  answer?: MerchantAnswer;
  busy: boolean;
}) {
  const shown = [...rows, { ...BLANK, position: String(rows.length + 1) }];
  const errors = answer?.errors ?? {};
  return (
    <Form method="post" noValidate className="flex flex-col gap-6" aria-labelledby="merchant-form-heading">
      <h2 id="merchant-form-heading" className="text-2xl">
        The price list
      </h2>
      <p className="text-dust">
        Change an item&apos;s name, price (in dollars, like 7.75) or unit, give it another place in the order, or tick
        “Retired” to stop selling it: orders that have it keep it as they were written. An item is sold at every event,
        or only at the events you tick. The last box adds an item. Nothing changes on the site until you save; every
        saved version stays in the history below.
      </p>
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="count" value={shown.length} />
      <Field
        label="The currency's name"
        name="currency"
        maxLength={60}
        defaultValue={currency}
        error={errors.currency}
        className="max-w-md"
      />
      {shown.map((row, n) => (
        <ItemFields key={`${row.key}-${n}`} row={row} n={n} isNew={n === rows.length} events={events} errors={errors} />
      ))}
      <PreviewAndSave busy={busy} save="Save the price list" />
    </Form>
  );
}

function ItemFields({
  row,
  n,
  isNew,
  events,
  errors,
}: {
  row: MerchantRow;
  n: number;
  isNew: boolean;
  events: EventChoice[];
  errors: Record<string, string>;
}) {
  const eventsError = errors[`events-${n}`];
  return (
    <fieldset className="panel flex flex-col gap-3">
      <legend className="px-1 font-bold text-brass">
        {isNew ? "Add an item" : `Item ${n + 1}${row.retired ? " (retired)" : ""}`}
      </legend>
      <input type="hidden" name={`key-${n}`} value={row.key} />
      <Field label="Name" name={`name-${n}`} maxLength={80} defaultValue={row.name} error={errors[`name-${n}`]} />
      <div className="flex flex-wrap items-start gap-4">
        <Field
          label="Price in dollars"
          name={`price-${n}`}
          inputMode="decimal"
          defaultValue={row.price}
          error={errors[`price-${n}`]}
          className="w-40"
        />
        <Field
          label="Sold as one"
          name={`unit-${n}`}
          maxLength={30}
          placeholder="piece, bag, crate"
          defaultValue={row.unit}
          error={errors[`unit-${n}`]}
          className="w-48"
        />
        <PlaceInOrder name={`position-${n}`} position={row.position} />
      </div>
      {isNew ? null : (
        <TickBox name={`retired-${n}`} checked={row.retired}>
          Retired: no longer sold
        </TickBox>
      )}
      {/* Folded while it is sold everywhere: a long list of events in every row is only opened where it is wanted. */}
      <details open={row.sold === "chosen" || eventsError !== undefined}>
        <summary className="flex min-h-11 items-center gap-2 text-brass">
          {row.sold === "every"
            ? "Sold at every event"
            : `Sold at ${row.events.length} ${row.events.length === 1 ? "event" : "events"}`}
          <span className="text-sm text-dust">(change)</span>
        </summary>
        <fieldset className="flex flex-col gap-1" aria-describedby={eventsError ? `events-${n}-error` : undefined}>
          <legend className="font-bold">Sold at</legend>
          <label className="flex min-h-11 items-center gap-2">
            <input
              type="radio"
              name={`sold-${n}`}
              value="every"
              defaultChecked={row.sold === "every"}
              className="size-5"
            />
            Every event
          </label>
          {events.length === 0 ? (
            <p className="text-sm text-dust">No events are coming up to limit it to.</p>
          ) : (
            <>
              <label className="flex min-h-11 items-center gap-2">
                <input
                  type="radio"
                  name={`sold-${n}`}
                  value="chosen"
                  defaultChecked={row.sold === "chosen"}
                  className="size-5"
                />
                Only at the events ticked here:
              </label>
              <div className="flex flex-col pl-7">
                {events.map((event) => (
                  <label key={event.id} className="flex min-h-11 items-center gap-2">
                    <input
                      type="checkbox"
                      name={`event-${n}-${event.id}`}
                      defaultChecked={row.events.includes(event.id)}
                      className="size-5"
                      onChange={(change) => {
                        // Ticking an event means "only at these": with scripts the choice follows.
                        const only = change.currentTarget.form?.querySelector<HTMLInputElement>(
                          `input[name="sold-${n}"][value="chosen"]`,
                        );
                        if (change.currentTarget.checked && only) only.checked = true;
                      }}
                    />
                    {saleEventName(event)}
                    {event.upcoming ? "" : " · over"}
                  </label>
                ))}
              </div>
            </>
          )}
          {eventsError ? <FieldError id={`events-${n}-error`}>{eventsError}</FieldError> : null}
        </fieldset>
      </details>
    </fieldset>
  );
}

/** The order form's list as members will see it, before anything is saved. */
export function MerchantPreview({ preview }: { preview: NonNullable<MerchantAnswer["preview"]> }) {
  return (
    <section aria-labelledby="merchant-preview-heading" className="panel flex flex-col gap-4">
      <h2 id="merchant-preview-heading" className="text-2xl">
        Preview: not saved yet
      </h2>
      <p className="text-dust">{`The order form's list, prices in ${preview.currency}:`}</p>
      {preview.items.length === 0 ? (
        <p>Nothing is for sale at the events to come.</p>
      ) : (
        <PriceList items={preview.items} />
      )}
      {preview.retired.length > 0 ? (
        <p className="text-sm text-dust">{`Retired, no longer offered: ${preview.retired.join(", ")}.`}</p>
      ) : null}
    </section>
  );
}
