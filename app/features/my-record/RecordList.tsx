import { Link } from "~/components/Link";
import { Pager } from "~/components/ListControls";
import { StatusBadge } from "~/features/members/ApplicationAnswers";
import { formatDollars } from "~/game/merchant";
import { formatClubDay, formatClubTime, formatEventDate } from "~/lib/dates";
import { countOf } from "~/lib/plural";
import {
  RECORD_KIND_NAMES,
  RECORD_KINDS,
  recordEntryPath,
  recordListPath,
  type RecordApplication,
  type RecordFilter,
  type RecordItem,
  type RecordKind,
} from "./record";
import { RecordReplies, RecordStatusTag } from "./RecordParts";

/** The form each kind is sent from, for an empty list's next step. */
const FORMS: Record<RecordKind, { to: string; label: string }> = {
  pel: { to: "/pels", label: "Write a post-event letter" },
  order: { to: "/merchant-orders", label: "Place a merchant order" },
  research: { to: "/research", label: "File research" },
};

/** The member's application in brief: its state, when it was sent and decided, and the way to its answers. */
export function RecordApplicationLine({ application }: { application: RecordApplication }) {
  return (
    <div className="flex flex-col gap-1 rounded-md border border-timber/70 px-3 pt-2" data-testid="record-application">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 className="font-bold text-brass">Your application</h3>
        {application ? <StatusBadge status={application.status} /> : null}
      </div>
      {application ? (
        <p className="flex flex-wrap items-center gap-x-3 text-sm text-dust">
          <span>
            {`Sent ${formatClubDay(application.sentAt)}`}
            {application.decidedAt ? ` · decided ${formatClubDay(application.decidedAt)}` : ""}
          </span>
          <Link to="/profile?tab=application" className="inline-flex min-h-11 items-center text-base">
            Read your application
          </Link>
        </p>
      ) : (
        <p className="pb-2">
          You have not applied yet. <Link to="/application">Fill out the application</Link>.
        </p>
      )}
    </div>
  );
}

/** Links narrowing the record to one kind, each with its count; the open one is marked for screen readers. */
export function RecordKindLinks({ filter, counts }: { filter: RecordFilter; counts: Record<RecordKind, number> }) {
  const all = RECORD_KINDS.reduce((sum, kind) => sum + counts[kind], 0);
  const choices: { id: RecordFilter; label: string }[] = [
    { id: "all", label: `All (${all})` },
    ...RECORD_KINDS.map((kind) => ({ id: kind, label: `${RECORD_KIND_NAMES[kind].filter} (${counts[kind]})` })),
  ];
  return (
    <nav aria-label="Kinds of entry" className="flex flex-wrap gap-2">
      {choices.map((choice) => (
        <Link
          key={choice.id}
          to={recordListPath(choice.id)}
          aria-current={choice.id === filter ? "page" : undefined}
          className={`inline-flex min-h-11 items-center rounded-md border px-3 no-underline hover:no-underline ${choice.id === filter ? "border-rust-dark bg-rust-dark text-parchment" : "border-timber text-parchment hover:bg-ash"}`}
        >
          {choice.label}
        </Link>
      ))}
    </nav>
  );
}

/** What tells one entry apart from another of the same event: an order's goods, a letter's character, a paper's file. */
function Gist({ item }: { item: RecordItem }) {
  if (item.kind === "order") {
    const pieces = Object.values(item.items).reduce((sum, n) => sum + n, 0);
    return <>{`${countOf(pieces, "item")} · ${formatDollars(item.totalCents)}`}</>;
  }
  if (item.kind === "pel") return <>{`As ${item.characterName}`}</>;
  return <>{item.fileName}</>;
}

function RecordListItem({ item }: { item: RecordItem }) {
  const headingId = `record-${item.kind}-${item.id}`;
  return (
    <li>
      <article
        aria-labelledby={headingId}
        className="flex flex-col gap-2 rounded-md border border-timber/70 p-3"
        data-testid="record-item"
      >
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h3 id={headingId} className="font-bold">
            <Link to={recordEntryPath(item.kind, item.id)}>
              {`${RECORD_KIND_NAMES[item.kind].one} · ${item.eventTitle}`}
            </Link>
          </h3>
          <RecordStatusTag item={item} />
        </div>
        <p className="text-sm text-dust">
          {`Event: ${formatEventDate(item.eventDate)} · ${item.kind === "order" ? "placed" : "sent"} ${formatClubTime(item.sentAt)}`}
        </p>
        <p>
          <Gist item={item} />
        </p>
        <RecordReplies replies={item.replies} titled />
      </article>
    </li>
  );
}

/** A page of the record, newest first, or what to do when it is empty. */
export function RecordList({
  filter,
  items,
  page,
  lastPage,
}: {
  filter: RecordFilter;
  items: RecordItem[];
  page: number;
  lastPage: number;
}) {
  if (items.length === 0 && page === 0) {
    const forms = filter === "all" ? RECORD_KINDS.map((kind) => FORMS[kind]) : [FORMS[filter]];
    return (
      <div className="flex flex-col gap-3" data-testid="record-empty">
        <p>
          {filter === "all"
            ? "You have not sent a post-event letter, an order or research yet."
            : `You have no ${RECORD_KIND_NAMES[filter].many.toLowerCase()} yet.`}
        </p>
        <ul className="flex flex-wrap gap-2">
          {forms.map((form) => (
            <li key={form.to}>
              <Link to={form.to} className="btn btn-secondary">
                {form.label}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return (
    <>
      <ol className="flex flex-col gap-3">
        {items.map((item) => (
          <RecordListItem key={`${item.kind}:${item.id}`} item={item} />
        ))}
      </ol>
      <Pager page={page} lastPage={lastPage} />
    </>
  );
}
