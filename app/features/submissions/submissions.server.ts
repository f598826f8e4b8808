import { and, asc, count, desc, eq, ilike, lte, ne, sql } from "drizzle-orm";
import { pelFormFor, type OrderInput } from "./submissions.form";
import { ORDER_ITEM_MESSAGES } from "./submissions.messages";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import { priceListFor } from "~/features/club-facts/merchant/merchant.server";
import { priceOrder } from "~/features/club-facts/merchant/price-list";
import { writtenAnswers } from "~/features/club-facts/questions/questions.form";
import { questionsShown } from "~/features/club-facts/questions/questions.server";
import { PEL_HIGHLIGHT_KEY } from "~/game/pel";
import type { SessionUser } from "~/lib/navigation";
import { database } from "~/platform/db/client.server";
import { characters, events, merchantOrders, pels, type WrittenAnswer } from "~/platform/db/schema";
import { queueDiscordPost } from "~/platform/discord/discord.server";
import { likePattern } from "~/platform/db/search.server";
import { checkForm, readForm, type ParsedForm } from "~/web/forms/kernel";

export type EventOption = { id: string; title: string; date: string };

/** Events a letter can be written about: held already (today or earlier), not cancelled; latest first. */
export async function listPelEvents(): Promise<EventOption[]> {
  const db = await database();
  return db
    .select({ id: events.id, title: events.title, date: events.date })
    .from(events)
    .where(and(ne(events.status, "cancelled"), lte(events.date, sql`current_date`)))
    .orderBy(desc(events.date));
}

/** Events the merchant takes orders for: those still to come, soonest first. */
export async function listOrderEvents(): Promise<EventOption[]> {
  const db = await database();
  return db
    .select({ id: events.id, title: events.title, date: events.date })
    .from(events)
    .where(eq(events.status, "future"))
    .orderBy(asc(events.date));
}

export async function countPels(userId: string): Promise<number> {
  const db = await database();
  const [row] = await db.select({ n: count() }).from(pels).where(eq(pels.userId, userId));
  return row?.n ?? 0;
}

/** A post-event letter as it is kept: its answers with the questions' wording as the member was asked them. */
export type PelLetter = { submissionKey: string; eventId: string; characterName: string; answers: WrittenAnswer[] };

/** The posted letter, checked against the questions its form asked (the version it was opened at). */
export async function readPelForm(request: Request): Promise<ParsedForm<PelLetter>> {
  const fields = await readForm(request);
  const questions = await questionsShown("pel-questions", fields.questionsVersion);
  const form = checkForm(pelFormFor(questions), fields);
  if (!form.ok) return form;
  const { submissionKey, eventId, characterName } = form.data;
  return { ...form, data: { submissionKey, eventId, characterName, answers: writtenAnswers(questions, form.data) } };
}

/**
 * Saves a post-event letter and queues an anonymous highlight (the event and the favourite
 * moments, never a name; none when the club no longer asks for them or they were left blank).
 * A resubmitted form saves nothing new.
 */
export async function submitPel(user: SessionUser, input: PelLetter): Promise<"saved" | "unknown-event"> {
  const allowed = await listPelEvents();
  const event = allowed.find((e) => e.id === input.eventId);
  if (!event) return "unknown-event";
  const db = await database();
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(pels)
      .values({ ...input, userId: user.id })
      .onConflictDoNothing({ target: pels.submissionKey })
      .returning({ id: pels.id });
    const highlight = input.answers.find((written) => written.key === PEL_HIGHLIGHT_KEY)?.answer;
    if (inserted.length === 0 || !highlight) return;
    await queueDiscordPost(tx, `✨ A moment from **${event.title}**, as a settler remembers it:\n\n${highlight}`);
  });
  return "saved";
}

/** The order form's data: the events still to come, and the club's price list for them in its currency. */
export async function loadOrderForm() {
  const upcoming = await listOrderEvents();
  return { events: upcoming, ...(await priceListFor(upcoming)) };
}

/** Why an order was not placed: its event is not open for orders, or one of its items cannot be had. */
export type OrderRefusal = { outcome: "unknown-event" } | { outcome: "refused-item"; field: string; message: string };

/**
 * Saves an order priced here from the club's price list as it is now, keeping each item's name,
 * unit and price with it; posted prices are never read. An item not on the list, retired, or
 * not sold at the order's event is refused with a message naming it.
 */
export async function submitOrder(
  user: SessionUser,
  input: OrderInput,
): Promise<{ outcome: "saved"; totalCents: number } | OrderRefusal> {
  const [allowed, { content: list }] = await Promise.all([listOrderEvents(), currentFacts("merchant")]);
  const event = allowed.find((e) => e.id === input.eventId);
  if (!event) return { outcome: "unknown-event" };
  const priced = priceOrder(list, input.items, event.id);
  if (!priced.ok) {
    const message =
      priced.reason === "unknown"
        ? ORDER_ITEM_MESSAGES.notOnList
        : priced.reason === "retired"
          ? ORDER_ITEM_MESSAGES.retired(priced.name)
          : ORDER_ITEM_MESSAGES.notAtEvent(priced.name, event.title);
    return { outcome: "refused-item", field: `qty_${priced.key}`, message };
  }
  const db = await database();
  await db
    .insert(merchantOrders)
    .values({
      submissionKey: input.submissionKey,
      userId: user.id,
      eventId: input.eventId,
      items: input.items,
      pricedItems: priced.pricedItems,
      totalPrice: (priced.totalCents / 100).toFixed(2),
    })
    .onConflictDoNothing({ target: merchantOrders.submissionKey });
  return { outcome: "saved", totalCents: priced.totalCents };
}

/** Up to 10 character names starting with (or containing) what has been typed, for the letter's To field. */
export async function suggestRecipients(typed: string): Promise<string[]> {
  const term = typed.trim();
  if (term.length < 1) return [];
  const db = await database();
  const rows = await db
    .selectDistinct({ name: characters.characterName })
    .from(characters)
    .where(ilike(characters.characterName, likePattern(term)))
    .orderBy(asc(characters.characterName))
    .limit(10);
  return rows.map((row) => row.name);
}
