import { OrderItems } from "~/features/club-facts/merchant/OrderItems";
import { formatClubTime, formatEventDate } from "~/lib/dates";
import type { MemberRecord } from "~/features/member-admin/member-record.server";
import { Facts, Section } from "./parts";

/**
 * The member's part in the game on the managers' page of one member: their character, the events
 * they were registered for with their cabins, and their merchant orders. Read only: each is
 * changed where it is made (the character builder, the attendance tool, the orders' review).
 */
export function RecordPanels({ record, name }: { record: MemberRecord; name: string }) {
  return (
    <>
      <CharacterPanel character={record.character} name={name} />
      <AttendancePanel attendance={record.attendance} name={name} />
      <OrdersPanel orders={record.orders} name={name} />
    </>
  );
}

function CharacterPanel({ character, name }: { character: MemberRecord["character"]; name: string }) {
  return (
    <Section id="member-character" title="Character">
      {character ? (
        <>
          <Facts
            rows={[
              ["Name", character.name],
              ["Faction", character.faction],
              ["Job", character.job],
            ]}
          />
          <details>
            <summary className="min-h-11 cursor-pointer py-2 text-dust">Backstory</summary>
            <p className="mt-2 whitespace-pre-wrap break-words">{character.backstory}</p>
          </details>
        </>
      ) : (
        <p className="text-dust">{`${name} has no character yet.`}</p>
      )}
    </Section>
  );
}

/** "Only the latest 50 are shown." under a list cut short. */
function More({ shown, more }: { shown: number; more: boolean }) {
  return more ? <p className="text-sm text-dust">{`Only the latest ${shown} are shown.`}</p> : null;
}

function AttendancePanel({ attendance, name }: { attendance: MemberRecord["attendance"]; name: string }) {
  return (
    <Section id="member-attendance" title="Attendance">
      {attendance.rows.length === 0 ? (
        <p className="text-dust">{`${name} has not been registered for an event.`}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-timber/60">
          {attendance.rows.map((row) => (
            <li key={row.eventId} className="flex flex-col py-2">
              <span className="flex flex-wrap items-baseline gap-x-2">
                <span className="font-bold">{row.title}</span>
                <span className="text-dust">{formatEventDate(row.date)}</span>
                {row.eventStatus === "cancelled" ? <span className="text-sm text-brass">Cancelled</span> : null}
                {row.paymentStatus === "unpaid" ? <span className="text-sm font-bold text-brass">Not paid</span> : null}
              </span>
              <span className="text-sm">
                {`Cabin: ${row.cabin ?? "Not assigned"}`}
                {row.characterName ? ` · as ${row.characterName}` : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
      <More shown={attendance.rows.length} more={attendance.more} />
    </Section>
  );
}

function OrdersPanel({ orders, name }: { orders: MemberRecord["orders"]; name: string }) {
  return (
    <Section id="member-orders" title="Merchant orders">
      {orders.rows.length === 0 ? (
        <p className="text-dust">{`${name} has placed no merchant orders.`}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-timber/60">
          {orders.rows.map((order) => (
            <li key={order.id} className="flex flex-col gap-1 py-3">
              <span className="flex flex-wrap items-baseline gap-x-2">
                <span className="font-bold">{order.event.title}</span>
                <span className="text-dust">{formatEventDate(order.event.date)}</span>
              </span>
              <OrderItems order={order} currency={orders.currency} className="text-sm" />
              <span className="text-sm text-dust">{`Ordered ${formatClubTime(order.createdAt)}`}</span>
              <span className={`text-sm font-bold ${order.handedOutAt ? "text-sage" : "text-brass"}`}>
                {order.handedOutAt ? `Handed out ${formatClubTime(order.handedOutAt)}` : "Not handed out yet"}
              </span>
            </li>
          ))}
        </ul>
      )}
      <More shown={orders.rows.length} more={orders.more} />
    </Section>
  );
}
