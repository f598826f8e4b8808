import { asc, eq, inArray, or } from "drizzle-orm";
import { data } from "react-router";
import { currentFacts, historyOf, saveFacts } from "../club-facts.server";
import { inOrder, placeOf, rowsFrom, slugFor, type Placed } from "../list-rows";
import { restoreVersion } from "../restore.server";
import {
  MERCHANT_ITEMS_MAX,
  MERCHANT_MESSAGES,
  MerchantItemSchema,
  MerchantSchema,
  type ClubMerchant,
  type ClubMerchantItem,
} from "./merchant.facts";
import { dollarsText, offeredItems, parseDollars, type OfferedItem } from "./price-list";
import { database } from "~/platform/db/client.server";
import { events } from "~/platform/db/schema";
import { fieldErrors, type FieldErrors, type FormValues } from "~/web/forms/kernel";

/**
 * The managers' price list page (routes/staff/club/merchant.tsx): the currency's name and the
 * items as one form, a row an item (`key-N`, `name-N`, `price-N`, `unit-N`, `position-N`,
 * `retired-N`, `sold-N` "every" or "chosen", and `event-N-<event id>` ticked for each event it is
 * sold at) and a blank row to add one, so it works as a plain form post; a preview of the order
 * form's list; the history. A new item's key is made from its name and never changes after.
 */

/** An event an item can be limited to: those still to come, and any an item of the list names. */
export type EventChoice = { id: string; title: string; date: string; upcoming: boolean };

/** One row of the form, as typed. */
export type MerchantRow = {
  key: string;
  name: string;
  price: string;
  unit: string;
  position: string;
  retired: boolean;
  sold: "every" | "chosen";
  events: string[];
};

/** What the page answers to a press: the form sent back with what was wrong, a preview, or the outcome. */
export type MerchantAnswer = {
  ok?: string;
  message?: string;
  errors?: FieldErrors;
  currency?: string;
  rows?: MerchantRow[];
  preview?: { currency: string; items: OfferedItem[]; retired: string[] };
};

/** The events a row may tick: those still to come, and those an item of the list is sold at, soonest first. */
async function eventChoices(list: ClubMerchant): Promise<EventChoice[]> {
  const named = [...new Set(list.items.flatMap((item) => item.events ?? []))];
  const db = await database();
  const rows = await db
    .select({ id: events.id, title: events.title, date: events.date, status: events.status })
    .from(events)
    .where(named.length > 0 ? or(eq(events.status, "future"), inArray(events.id, named)) : eq(events.status, "future"))
    .orderBy(asc(events.date), asc(events.title));
  return rows.map(({ status, ...event }) => ({ ...event, upcoming: status === "future" }));
}

const rowOf = (item: ClubMerchantItem, index: number): MerchantRow => ({
  key: item.key,
  name: item.name,
  price: dollarsText(item.priceCents),
  unit: item.unit,
  position: String(index + 1),
  retired: item.retired,
  sold: item.events === null ? "every" : "chosen",
  events: item.events ?? [],
});

/** The page's data: the list now (its version, for the save to check), the events to choose from, the history. */
export async function loadMerchantPage() {
  const [{ version, content }, history] = await Promise.all([currentFacts("merchant"), historyOf("merchant")]);
  return {
    version,
    currency: content.currency,
    rows: content.items.map(rowOf),
    events: await eventChoices(content),
    history,
  };
}

function rowsOf(fields: FormValues, choices: EventChoice[]): MerchantRow[] {
  return rowsFrom(fields, MERCHANT_ITEMS_MAX + 1, (n) => ({
    key: fields[`key-${n}`] ?? "",
    name: fields[`name-${n}`] ?? "",
    price: fields[`price-${n}`] ?? "",
    unit: fields[`unit-${n}`] ?? "",
    position: fields[`position-${n}`] ?? String(n + 1),
    retired: fields[`retired-${n}`] === "on",
    sold: fields[`sold-${n}`] === "chosen" ? "chosen" : "every",
    events: choices.filter((event) => fields[`event-${n}-${event.id}`] === "on").map((event) => event.id),
  }));
}

/** The list the form makes, items in the order their places give, or what was wrong with which field. */
function listOf(currency: string, rows: MerchantRow[]): { list: ClubMerchant } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const named = MerchantSchema.shape.currency.safeParse(currency);
  if (!named.success) errors.currency = MERCHANT_MESSAGES.currency;
  const kept: Placed<ClubMerchantItem>[] = [];
  const taken = new Set(rows.map((row) => row.key).filter(Boolean));
  if (taken.size !== rows.filter((row) => row.key).length)
    errors.form = "Two rows name the same item: reload the page.";
  rows.forEach((row, n) => {
    // A blank new row is not an item.
    if (!row.key && !row.name.trim() && !row.price.trim() && !row.unit.trim()) return;
    const priceCents = parseDollars(row.price);
    if (priceCents === null) errors[`price-${n}`] = MERCHANT_MESSAGES.price;
    if (row.sold === "chosen" && row.events.length === 0) errors[`events-${n}`] = MERCHANT_MESSAGES.events;
    const parsed = MerchantItemSchema.safeParse({
      key: row.key || slugFor(row.name, taken, "item", "_"),
      name: row.name,
      unit: row.unit,
      priceCents: priceCents ?? 0,
      retired: row.retired,
      events: row.sold === "chosen" ? row.events : null,
    });
    if (!parsed.success) {
      for (const [field, message] of Object.entries(fieldErrors(parsed.error))) {
        const name = field === "priceCents" ? "price" : field;
        if (name === "key") errors.form ??= "This form could not be read. Please reload the page.";
        else errors[`${name}-${n}`] ??= message;
      }
      return;
    }
    kept.push({ value: parsed.data, position: placeOf(row.position, n), n });
  });
  if (kept.length > MERCHANT_ITEMS_MAX) errors.form ??= MERCHANT_MESSAGES.tooMany;
  if (Object.keys(errors).length > 0 || !named.success) return { errors };
  return { list: { currency: named.data, items: inOrder(kept) } };
}

const refused = (currency: string, rows: MerchantRow[], errors: FieldErrors) =>
  data<MerchantAnswer>(
    { message: errors.form ?? "Some entries need a change: see the marked fields.", errors, currency, rows },
    { status: 400 },
  );

/** The form as sent: the currency, the rows, and the list they make (or what is wrong with it). */
async function readPage(fields: FormValues) {
  const choices = await eventChoices((await currentFacts("merchant")).content);
  const currency = fields.currency ?? "";
  const rows = rowsOf(fields, choices);
  return { choices, currency, rows, made: listOf(currency, rows) };
}

/** "Preview": the order form's list as members will see it (retired items named apart), the form kept as typed. */
export async function previewMerchant(fields: FormValues) {
  const { choices, currency, rows, made } = await readPage(fields);
  if ("errors" in made) return refused(currency, rows, made.errors);
  const upcoming = choices.filter((event) => event.upcoming);
  return data<MerchantAnswer>({
    currency,
    rows,
    preview: {
      currency: made.list.currency,
      items: offeredItems(made.list, upcoming),
      retired: made.list.items.filter((item) => item.retired).map((item) => item.name),
    },
  });
}

/** "Save the price list": a new version, unless another manager saved one since this form was opened. */
export async function saveMerchant(fields: FormValues, actor: { id: string }) {
  const { currency, rows, made } = await readPage(fields);
  if ("errors" in made) return refused(currency, rows, made.errors);
  const outcome = await saveFacts("merchant", made.list, actor, Number(fields.version));
  if (outcome.ok) return data<MerchantAnswer>({ ok: `Saved: the price list is now version ${outcome.version}.` });
  if (outcome.reason === "changed-meanwhile")
    return data<MerchantAnswer>({ message: outcome.message }, { status: 409 });
  return refused(currency, rows, { form: "The price list could not be saved as it is." });
}

/** "Bring back": an earlier version saved again as the newest. */
export function restoreMerchant(fields: FormValues, actor: { id: string }) {
  return restoreVersion<MerchantAnswer>("merchant", fields, actor);
}
