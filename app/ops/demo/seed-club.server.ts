import { KINDS } from "~/features/club-facts/kinds";
import { audit } from "~/platform/audit.server";
import type { Database } from "~/platform/db/client.server";
import { clubFactVersions } from "~/platform/db/schema";

/**
 * The demo club's managers have changed two of the club's facts, so the history, the audit log and
 * "Bring back" have something to show: a question added to the FAQ, and lamp oil on the price
 * list. Orders made by the demo were written against the list before (the starting one).
 */
export async function seedClubFacts(db: Database, managerId: string): Promise<void> {
  const faq = KINDS.faq.starting();
  const parking = {
    id: "where-do-we-park",
    question: "Where do we park?",
    answer: "In the field by the gate. Follow the lanterns and the staff's directions; leave the lane clear.",
  };
  const merchant = KINDS.merchant.starting();
  const lampOil = {
    key: "lamp_oil",
    name: "Lamp Oil",
    unit: "flask",
    priceCents: 425,
    retired: false,
    events: null,
  };
  const saves = [
    { kind: "faq" as const, before: faq, after: [...faq, parking] },
    { kind: "merchant" as const, before: merchant, after: { ...merchant, items: [...merchant.items, lampOil] } },
  ];
  for (const { kind, before, after } of saves) {
    await db.insert(clubFactVersions).values({ kind, version: 1, content: after, changedBy: managerId });
    await audit(db, {
      actorId: managerId,
      action: "club_facts.save",
      details: { kind, version: 1, restoredFrom: null, before, after },
    });
  }
}
