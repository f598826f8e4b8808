import { asc, desc, eq } from "drizzle-orm";
import type { Cabin } from "~/game/cabins";
import { storedTotalCents } from "~/game/merchant";
import type { EventStatus, PaymentStatus } from "~/game/roles";
import { database } from "~/platform/db/client.server";
import { characters, eventAttendance, events, merchantOrders, type PricedItems } from "~/platform/db/schema";
import { merchantCurrency } from "~/features/club-facts/merchant/merchant.server";

/**
 * What a member has done in the game, for the managers' page of one member
 * (routes/staff/tools/member.tsx): their character, the events they were registered for (with
 * their cabin) and their merchant orders. Read only; each list newest first, at most
 * RECORD_LIST_MAX long (`more` says when there are older ones).
 */
export const RECORD_LIST_MAX = 50;

export type RecordAttendance = {
  eventId: string;
  title: string;
  date: string;
  eventStatus: EventStatus;
  cabin: Cabin | null;
  paymentStatus: PaymentStatus;
  /** The character's name when they were registered. */
  characterName: string | null;
};

export type RecordOrder = {
  id: string;
  event: { title: string; date: string };
  items: Record<string, number>;
  /** Each item as the member saw it on the price list when ordering. */
  pricedItems: PricedItems;
  totalCents: number;
  createdAt: string;
  handedOutAt: string | null;
};

export type MemberRecord = {
  character: { name: string; faction: string; job: string; backstory: string } | null;
  attendance: { rows: RecordAttendance[]; more: boolean };
  /** `currency`: what the currency is called now. */
  orders: { rows: RecordOrder[]; more: boolean; currency: string };
};

/** The first RECORD_LIST_MAX rows, and whether there were more (one more is read to know). */
function capped<T>(rows: T[]) {
  return { rows: rows.slice(0, RECORD_LIST_MAX), more: rows.length > RECORD_LIST_MAX };
}

export async function memberRecord(userId: string): Promise<MemberRecord> {
  const db = await database();
  const [[character], attendance, orders, currency] = await Promise.all([
    db
      .select({
        name: characters.characterName,
        faction: characters.faction,
        job: characters.job,
        backstory: characters.backstory,
      })
      .from(characters)
      .where(eq(characters.userId, userId)),
    db
      .select({
        eventId: events.id,
        title: events.title,
        date: events.date,
        eventStatus: events.status,
        cabin: eventAttendance.cabin,
        paymentStatus: eventAttendance.paymentStatus,
        characterName: eventAttendance.characterName,
      })
      .from(eventAttendance)
      .innerJoin(events, eq(events.id, eventAttendance.eventId))
      .where(eq(eventAttendance.userId, userId))
      .orderBy(desc(events.date), asc(events.title))
      .limit(RECORD_LIST_MAX + 1),
    db
      .select({
        id: merchantOrders.id,
        title: events.title,
        date: events.date,
        items: merchantOrders.items,
        pricedItems: merchantOrders.pricedItems,
        totalPrice: merchantOrders.totalPrice,
        createdAt: merchantOrders.createdAt,
        handedOutAt: merchantOrders.handedOutAt,
      })
      .from(merchantOrders)
      .innerJoin(events, eq(events.id, merchantOrders.eventId))
      .where(eq(merchantOrders.userId, userId))
      .orderBy(desc(merchantOrders.createdAt), desc(merchantOrders.id))
      .limit(RECORD_LIST_MAX + 1),
    merchantCurrency(),
  ]);
  return {
    character: character ?? null,
    attendance: capped(attendance),
    orders: {
      ...capped(
        orders.map(({ title, date, totalPrice, createdAt, handedOutAt, ...order }) => ({
          ...order,
          event: { title, date },
          totalCents: storedTotalCents(totalPrice),
          createdAt: createdAt.toISOString(),
          handedOutAt: handedOutAt?.toISOString() ?? null,
        })),
      ),
      currency,
    },
  };
}
