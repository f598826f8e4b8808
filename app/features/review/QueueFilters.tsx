import { Form } from "react-router";
import { QUEUE_STATUS_LABELS, QUEUE_STATUSES, type QueueStatus } from "~/game/review-queue";
import { useAddressValue } from "~/lib/use-address-value";

export type QueueFilterValue = {
  status: QueueStatus | "any";
  assignee: string;
};

/**
 * The queue's filters, by status and by who has taken an entry, as a GET form: the choice stays
 * in the address (with the opened event, search or tab in `keep`) and works without JavaScript.
 * The dropdowns show the address's choice again after each navigation (a search, a tab, a link).
 */
export function QueueFilters({
  filter,
  staff,
  keep,
}: {
  filter: QueueFilterValue;
  staff: { id: string; name: string }[];
  keep: Record<string, string | null | undefined>;
}) {
  const select = "min-h-11 rounded-md border border-timber bg-ink px-3 py-2 text-parchment";
  const [status, setStatus] = useAddressValue(filter.status);
  const [assignee, setAssignee] = useAddressValue(filter.assignee);
  return (
    <Form
      method="get"
      preventScrollReset
      className="flex flex-wrap items-end gap-3"
      aria-label="Filter the queue"
      role="search"
    >
      {Object.entries(keep).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor="queue-filter-status" className="text-sm font-bold text-parchment">
          Status
        </label>
        <select
          id="queue-filter-status"
          name="status"
          value={status}
          onChange={(event) => setStatus(event.target.value)}
          className={select}
        >
          <option value="any">Any status</option>
          {QUEUE_STATUSES.map((status) => (
            <option key={status} value={status}>
              {QUEUE_STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="queue-filter-assignee" className="text-sm font-bold text-parchment">
          Taken by
        </label>
        <select
          id="queue-filter-assignee"
          name="assignee"
          value={assignee}
          onChange={(event) => setAssignee(event.target.value)}
          className={select}
        >
          <option value="any">Anyone or nobody</option>
          <option value="mine">Me</option>
          <option value="nobody">Nobody</option>
          {staff.map((person) => (
            <option key={person.id} value={person.id}>
              {person.name}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn btn-secondary">
        Filter
      </button>
    </Form>
  );
}

/** The filter's fields as a form keeps them (hidden inputs): none for "any". */
export function filterFields(filter: QueueFilterValue): { status: string | null; assignee: string | null } {
  return {
    status: filter.status === "any" ? null : filter.status,
    assignee: filter.assignee === "any" ? null : filter.assignee,
  };
}

/** The filter's part of an address, to keep it on links between events and pages. */
export function filterQuery(filter: QueueFilterValue): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filterFields(filter))) if (value) params.set(name, value);
  const query = params.toString();
  return query ? `&${query}` : "";
}
