import { CHARACTER_NAME_MAX } from "~/features/members/character.limits";
import { LETTER_BODY_MAX } from "~/features/letters/letters.messages";
import { PEL_ANSWER_MAX, PEL_QUESTIONS } from "~/game/pel";
import { PAYMENT_STATUSES, type PaymentStatus } from "~/game/roles";
import { eventAttendance, letters, merchantOrders, pels } from "~/platform/db/schema";
import { builtInPricedItems } from "~/game/merchant";
import { eachRow, flagRow, type ImportContext, type Outcome } from "./context.server";
import type { CsvRow, CsvTable } from "./csv.server";
import { EXPORT_FILES, type ExportTable, type PEL_ANSWERS } from "./format.server";
import { orderItems, parseAmountCents, priceListTotalCents } from "./merchant-items.server";
import { referencesOf } from "./owners.server";
import { dollars, type ReportTable } from "./report.server";
import {
  limitedText,
  matchCabin,
  parseJson,
  parseTimestamp,
  requiredTimestamp,
  requiredUuid,
  shown,
  Skip,
  stableUuid,
} from "./values.server";

/**
 * A submission's id: its own when the export has the column, else one made from its cells,
 * so the same row is the same row on every run. Two identical rows are one submission.
 */
export function submissionId(table: ExportTable, row: CsvRow, seen: Map<string, number>): string {
  const own = row.cells.id ?? null;
  const id =
    own !== null
      ? requiredUuid(own, "id")
      : stableUuid(
          "hopewell-import",
          table,
          JSON.stringify(
            (EXPORT_FILES[table].required as readonly string[]).map((column) => row.cells[column] ?? null),
          ),
        );
  const first = seen.get(id);
  if (first !== undefined)
    throw new Skip(own !== null ? "the id appears twice in the file" : "the same as an earlier row", `(line ${first})`);
  seen.set(id, row.line);
  return id;
}

/** The key that makes a resubmitted form one row; for an imported row, made from its id. */
export const submissionKey = (table: ExportTable, id: string) => stableUuid("hopewell-import-submission", table, id);

/** Inserts a submission the site does not hold yet; one it holds is left as it is (submissions are never edited). */
async function insertOnce(insert: () => Promise<unknown[]>): Promise<Outcome> {
  const inserted = await insert();
  return inserted.length > 0 ? "imported" : "unchanged";
}

type Importer = (ctx: ImportContext, csv: CsvTable) => Promise<void>;

/** Each built-in question of the letter, and the old site's column that held its answer. */
const PEL_COLUMNS = {
  scariness: "scariness",
  favoriteMoments: "favorite_moments",
  enjoyment: "enjoyment",
  notableNpcs: "notable_npcs",
  notablePcs: "notable_pcs",
  improvements: "improvements",
  activities: "activities",
  goals: "goals",
  jobs: "jobs",
  drugs: "drugs",
  followUp: "follow_up",
} as const satisfies Record<(typeof PEL_QUESTIONS)[number]["key"], (typeof PEL_ANSWERS)[number]>;

export const importPels: Importer = async (ctx, csv) => {
  const refs = await referencesOf(ctx, csv, { events: true });
  const seen = new Map<string, number>();
  await eachRow(ctx, "pels", csv, async (row) => {
    const id = submissionId("pels", row, seen);
    const c = (column: string) => limitedText(row.cells[column] ?? null, column, PEL_ANSWER_MAX);
    const values = {
      id,
      submissionKey: submissionKey("pels", id),
      userId: refs.member(row),
      eventId: refs.event(row),
      characterName: limitedText(row.cells.character_name ?? null, "character_name", CHARACTER_NAME_MAX),
      // The old site asked the built-in questions: each answer is kept with their wording.
      answers: PEL_QUESTIONS.map((q) => ({ key: q.key, question: q.label, answer: c(PEL_COLUMNS[q.key]) })),
      createdAt: requiredTimestamp(row.cells.created_at ?? null, "created_at"),
    };
    return insertOnce(() => ctx.tx.insert(pels).values(values).onConflictDoNothing().returning({ id: pels.id }));
  });
};

/**
 * An order's total is kept as recorded (it is what the member brought to the event), and
 * flagged when it differs from the price list's sum of its items.
 */
function orderTotal(ctx: ImportContext, table: ReportTable, file: string, row: CsvRow, listCents: number): number {
  const cell = row.cells.total_price ?? null;
  const recorded = parseAmountCents(cell);
  if (cell === null) {
    flagRow(
      ctx,
      table,
      file,
      row.line,
      "no total_price",
      `no total_price: the price list's ${dollars(listCents)} used`,
    );
    return listCents;
  }
  if (recorded === null) throw new Skip("unreadable total_price", shown(cell));
  if (recorded <= 0) throw new Skip("total_price not above zero", shown(cell));
  if (recorded !== listCents) {
    flagRow(
      ctx,
      table,
      file,
      row.line,
      "total differs from the price list",
      `total_price ${dollars(recorded)} differs from the price list's ${dollars(listCents)} (kept as recorded)`,
    );
  }
  return recorded;
}

export const importMerchantOrders: Importer = async (ctx, csv) => {
  const refs = await referencesOf(ctx, csv, { events: true });
  const seen = new Map<string, number>();
  await eachRow(ctx, "merchant_orders", csv, async (row) => {
    const id = submissionId("merchant_orders", row, seen);
    const userId = refs.member(row);
    const eventId = refs.event(row);
    const items = orderItems(parseJson(row.cells.items ?? null, "items"));
    const createdAt = requiredTimestamp(row.cells.created_at ?? null, "created_at");
    const totalCents = orderTotal(ctx, "merchant_orders", csv.file, row, priceListTotalCents(items));
    const values = {
      id,
      submissionKey: submissionKey("merchant_orders", id),
      userId,
      eventId,
      items,
      pricedItems: builtInPricedItems(items),
      totalPrice: (totalCents / 100).toFixed(2),
      createdAt,
    };
    return insertOnce(() =>
      ctx.tx.insert(merchantOrders).values(values).onConflictDoNothing().returning({ id: merchantOrders.id }),
    );
  });
};

export const importAttendance: Importer = async (ctx, csv) => {
  const refs = await referencesOf(ctx, csv, { events: true });
  const seen = new Map<string, number>();
  await eachRow(ctx, "event_attendance", csv, async (row) => {
    const id = submissionId("event_attendance", row, seen);
    const userId = refs.member(row);
    const eventId = refs.event(row);
    const payment = row.cells.payment_status?.trim().toLowerCase() ?? "paid";
    if (!(PAYMENT_STATUSES as readonly string[]).includes(payment))
      throw new Skip("unknown payment_status", shown(row.cells.payment_status ?? null));
    const characterName =
      limitedText(row.cells.character_name?.trim() ?? null, "character_name", CHARACTER_NAME_MAX) || null;
    const cabinCell = row.cells.cabin ?? null;
    const cabin = matchCabin(cabinCell);
    if (cabinCell !== null && !cabin)
      flagRow(
        ctx,
        "event_attendance",
        csv.file,
        row.line,
        "unknown cabin",
        `unknown cabin ${shown(cabinCell)}: left unassigned`,
      );
    const values = {
      id,
      userId,
      eventId,
      cabin,
      paymentStatus: payment as PaymentStatus,
      characterName,
      // The record's date is not shown anywhere; without one in the export, the run's.
      ...(parseTimestamp(row.cells.created_at ?? null)
        ? { createdAt: parseTimestamp(row.cells.created_at ?? null)! }
        : {}),
    };
    // Once per member per event: a registration already made here stands.
    return insertOnce(() =>
      ctx.tx.insert(eventAttendance).values(values).onConflictDoNothing().returning({ id: eventAttendance.id }),
    );
  });
};

export const importLetters: Importer = async (ctx, csv) => {
  const refs = await referencesOf(ctx, csv);
  const seen = new Map<string, number>();
  await eachRow(ctx, "letters", csv, async (row) => {
    const id = submissionId("letters", row, seen);
    const values = {
      id,
      submissionKey: submissionKey("letters", id),
      userId: refs.member(row),
      recipient: limitedText(row.cells.recipient ?? null, "recipient", CHARACTER_NAME_MAX),
      body: limitedText(row.cells.body ?? null, "body", LETTER_BODY_MAX),
      createdAt: requiredTimestamp(row.cells.created_at ?? null, "created_at"),
    };
    return insertOnce(() => ctx.tx.insert(letters).values(values).onConflictDoNothing().returning({ id: letters.id }));
  });
};
