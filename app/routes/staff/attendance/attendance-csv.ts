import { data } from "react-router";
import { isUuid } from "~/lib/ids";
import type { Route } from "./+types/attendance-csv";
import { attendanceCsv, attendanceFileName, paidAttendees } from "~/features/attendance/attendance.server";
import { requireAccess } from "~/web/guards.server";
import { isManager } from "~/game/roles";
import { paymentsByMember } from "~/features/tickets/ledger.server";
import { ticketSalesEnabled } from "~/features/tickets/stripe.server";

/** One event's paid attendance as a spreadsheet file (docs/product.md#attendance-export). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "staff");
  const attendance = isUuid(params.eventId) ? await paidAttendees(params.eventId) : null;
  if (!attendance) throw data("Not found", { status: 404 });
  const name = attendanceFileName(attendance.title, attendance.date);
  // How each attendee paid is in the managers' export only, once tickets are sold on the site.
  const payments = isManager(user.role) && ticketSalesEnabled() ? await paymentsByMember(params.eventId!) : undefined;
  return new Response(attendanceCsv(attendance.rows, payments), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name.replace(/[^\x20-\x7e]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      "Cache-Control": "private, no-store",
    },
  });
}
