/*
 * The member's record (docs/product.md#my-record): what the page and its entries show, shared by
 * the server's reads (record.server.ts) and the components, which send no database code to the
 * browser.
 */
import { REPLY_KINDS, type ReplyKind } from "~/game/review-queue";
import type { ApplicationStatus } from "~/game/roles";
import type { PricedItems, WrittenAnswer } from "~/platform/db/schema";

/** The kinds of entry a member sends and staff answer: post-event letters, merchant orders and research papers. */
export const RECORD_KINDS = REPLY_KINDS;
export type RecordKind = ReplyKind;
export type RecordFilter = RecordKind | "all";

/** Entries a page of the record shows: each carries staff's replies, so a page is kept short. */
export const RECORD_PAGE_SIZE = 10;

/** Where the record lives, and where each entry opens (the same 404 for another member's entry as for none). */
export const RECORD_PATH = "/profile/record";
export const recordEntryPath = (kind: RecordKind, id: string) => `${RECORD_PATH}/${kind}/${id}`;
export const recordListPath = (filter: RecordFilter) =>
  filter === "all" ? RECORD_PATH : `${RECORD_PATH}?kind=${filter}`;

/** The record's filter from `?kind=`: anything else shows every kind. */
export function recordFilter(value: string | null): RecordFilter {
  return (RECORD_KINDS as readonly string[]).includes(value ?? "") ? (value as RecordKind) : "all";
}

/** The record's words for each kind: one, many, and its filter's short name (four fit a phone's width in two rows). */
export const RECORD_KIND_NAMES: Record<RecordKind, { one: string; many: string; filter: string }> = {
  pel: { one: "Post-event letter", many: "Post-event letters", filter: "Post-event letters" },
  order: { one: "Merchant order", many: "Merchant orders", filter: "Orders" },
  research: { one: "Research paper", many: "Research papers", filter: "Research" },
};

/** A reply from staff as the member reads it: the words and when, never who wrote it (as on the profile). */
export type RecordReply = { id: string; body: string; createdAt: string };

type Common = {
  id: string;
  eventTitle: string;
  eventDate: string;
  sentAt: string;
  replies: RecordReply[];
};

/** One entry of the record's list: enough to tell it apart, its status and staff's replies. */
export type RecordItem = Common &
  (
    | { kind: "pel"; characterName: string }
    | {
        kind: "order";
        totalCents: number;
        items: Record<string, number>;
        handedOutAt: string | null;
        /** The event's day has gone by (in the club's days). */
        eventOver: boolean;
      }
    | { kind: "research"; fileName: string }
  );

/**
 * Where an entry stands, as far as the member can know it: an order is handed out at the event,
 * still to collect, or (the event over) not handed out; any entry staff have replied to is
 * answered. The review queues' own states (new, taken, in progress) are staff's way of sharing
 * the work and are not shown.
 */
export function recordStatus(item: RecordItem): { label: string; tone: "done" | "waiting" } {
  if (item.kind === "order") {
    if (item.handedOutAt) return { label: "Handed out", tone: "done" };
    return { label: item.eventOver ? "Not handed out" : "To collect at the event", tone: "waiting" };
  }
  return item.replies.length > 0
    ? { label: "Answered", tone: "done" }
    : { label: "Sent, no reply yet", tone: "waiting" };
}

/** One entry opened: what the member sent, whole. */
export type RecordEntry = RecordItem &
  (
    | { kind: "pel"; answers: WrittenAnswer[] }
    | {
        kind: "order";
        /** Each item as the member saw it on the price list when ordering (name, unit, price). */
        pricedItems: PricedItems;
        /** What the currency is called now. */
        currency: string;
      }
    | { kind: "research"; sources: string; notes: string; fileSize: number }
  );

/** The member's application as the record lists it beside what they sent. */
export type RecordApplication = { status: ApplicationStatus; sentAt: string; decidedAt: string | null } | null;
