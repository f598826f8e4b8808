import { z } from "zod";
import { EVENT_STATUSES } from "~/game/roles";
import { formatDollars } from "~/game/merchant";
import { TICKET_PLACES_MAX, TICKET_PRICE_MAX_CENTS, TICKET_PRICE_MIN_CENTS } from "~/game/tickets";
import { formatEventDate } from "~/lib/dates";
import { answer } from "~/features/members/application.form";
import { FORM_MESSAGES, hasControlCharacters } from "~/web/forms/kernel";
import { MESSAGES } from "~/web/forms/messages";

export const TICKET_URL_HTTPS = "The ticket link must be an https:// address";

/** The operators' rule for an event's date, said on the form. */
export const EVENT_DATE_HINT = "The Friday the venue opens.";

/**
 * A word for the manager when a saved event's date is not a Friday. The date is kept (a club may
 * open on another day), but a Sunday is more often a slip, and members plan their weekend by it.
 */
export function notAFridayWarning(isoDate: string): string | undefined {
  const [year, month, day] = isoDate.split("-").map(Number);
  if (new Date(Date.UTC(year!, month! - 1, day!)).getUTCDay() === 5) return undefined;
  return `${formatEventDate(isoDate)} is not a Friday. An event's date is the Friday the venue opens: check it before members plan by it.`;
}

export const EVENT_TITLE_MAX = 200;
export const TICKET_URL_MAX = 500;

export const TICKET_PRICE_FORMAT = "Please enter the price in dollars, such as 45 or 45.00";
export const TICKET_PRICE_RANGE = `A ticket costs from ${formatDollars(TICKET_PRICE_MIN_CENTS)} to ${formatDollars(TICKET_PRICE_MAX_CENTS)}`;
export const TICKET_PLACES_RANGE = `Please enter a whole number of places from 1 to ${TICKET_PLACES_MAX}, or leave it empty for no limit`;

/** "45" or "45.00" -> 4500 cents; empty -> null (no ticket sold on the site). */
const ticketPrice = z
  .string()
  .trim()
  .refine((value) => value === "" || /^\$?\d{1,6}(\.\d{2})?$/.test(value), TICKET_PRICE_FORMAT)
  .transform((value) => (value === "" ? null : Math.round(Number(value.replace("$", "")) * 100)))
  .refine(
    (cents) => cents === null || (cents >= TICKET_PRICE_MIN_CENTS && cents <= TICKET_PRICE_MAX_CENTS),
    TICKET_PRICE_RANGE,
  );

const ticketPlaces = z
  .string()
  .trim()
  .refine(
    (value) => value === "" || (/^\d{1,4}$/.test(value) && Number(value) >= 1 && Number(value) <= TICKET_PLACES_MAX),
    TICKET_PLACES_RANGE,
  )
  .transform((value) => (value === "" ? null : Number(value)));

export const EventForm = z.object({
  title: answer(EVENT_TITLE_MAX),
  date: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Please choose a date")
    .refine(
      (value) =>
        !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
        new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
      "Please choose a real date",
    ),
  status: z.enum(EVENT_STATUSES, { error: MESSAGES.required }),
  ticketUrl: z
    .string()
    .trim()
    .max(TICKET_URL_MAX)
    .refine((value) => !hasControlCharacters(value), FORM_MESSAGES.controlCharacters)
    .transform((value) => (value === "" ? null : value))
    .pipe(z.url({ protocol: /^https$/, error: TICKET_URL_HTTPS }).nullable()),
  // Optional on the form (older forms and pages without the fields send nothing): empty when missing.
  ticketPriceCents: z.string().optional().default("").pipe(ticketPrice),
  ticketPlaces: z.string().optional().default("").pipe(ticketPlaces),
});

export type EventInput = z.infer<typeof EventForm>;
