import { Link } from "~/components/Link";
import { OrderItems } from "~/features/club-facts/merchant/OrderItems";
import { formatDollars } from "~/game/merchant";
import { WrittenAnswerRows } from "~/features/club-facts/questions/QuestionFields";
import { formatBytes } from "~/lib/bytes";
import { formatClubTime, formatEventDate } from "~/lib/dates";
import { RECORD_KIND_NAMES, recordListPath, type RecordEntry } from "./record";
import { RecordReplies, RecordStatusTag } from "./RecordParts";

/** A question and its answer, kept as written. */
function Answer({ question, children }: { question: string; children: string }) {
  return (
    <div>
      <dt className="font-bold text-brass">{question}</dt>
      <dd className="mt-1 break-words whitespace-pre-wrap">{children}</dd>
    </div>
  );
}

/** What the member sent, whole: a letter's answers, an order's goods, a paper's notes and file. */
function Sent({ entry }: { entry: RecordEntry }) {
  if (entry.kind === "pel") {
    return (
      <dl className="flex flex-col gap-4">
        <Answer question="Character name">{entry.characterName}</Answer>
        <WrittenAnswerRows answers={entry.answers} />
      </dl>
    );
  }
  if (entry.kind === "order") {
    return (
      <div className="flex flex-col gap-2">
        <OrderItems order={entry} detail="priced" />
        <p className="text-sm text-dust">
          {entry.handedOutAt
            ? `Handed out ${formatClubTime(entry.handedOutAt)}.`
            : entry.eventOver
              ? "The event is over and the goods were not marked handed out. Ask staff if you collected them."
              : `Bring ${formatDollars(entry.totalCents)} ${entry.currency} to the event to collect your goods.`}
        </p>
      </div>
    );
  }
  return (
    <dl className="flex flex-col gap-4">
      <Answer question="Sources">{entry.sources}</Answer>
      <Answer question="Research notes">{entry.notes}</Answer>
      <div>
        <dt className="font-bold text-brass">File</dt>
        <dd className="mt-1">
          {/* A download (the route sends it as an attachment): not a page of the app. */}
          <a href={`/research/${entry.id}/file`} className="break-all">
            {entry.fileName}
          </a>{" "}
          <span className="text-sm text-dust">({formatBytes(entry.fileSize)})</span>
        </dd>
      </div>
    </dl>
  );
}

/** One entry of the member's record, opened: when and for which event, where it stands, what was sent and staff's replies. */
export function RecordEntryView({ entry }: { entry: RecordEntry }) {
  const name = RECORD_KIND_NAMES[entry.kind];
  return (
    <article aria-labelledby="record-entry" className="panel flex min-w-0 flex-col gap-4" data-testid="record-entry">
      <Link to={recordListPath(entry.kind)} className="inline-flex min-h-11 items-center self-start">
        {`Back to your ${name.many.toLowerCase()}`}
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id="record-entry" className="text-2xl">
          {`${name.one} · ${entry.eventTitle}`}
        </h2>
        <RecordStatusTag item={entry} />
      </div>
      <p className="text-sm text-dust">
        {`Event: ${formatEventDate(entry.eventDate)} · ${entry.kind === "order" ? "placed" : "sent"} ${formatClubTime(entry.sentAt)}`}
      </p>
      <section aria-labelledby="record-replies" className="flex flex-col gap-2">
        <h3 id="record-replies" className="text-xl">
          Answers from staff
        </h3>
        {entry.replies.length === 0 ? (
          <p className="text-dust">No reply yet. When staff reply, it appears here and on your profile.</p>
        ) : (
          <RecordReplies replies={entry.replies} titled={false} />
        )}
      </section>
      <section aria-labelledby="record-sent" className="flex flex-col gap-2">
        <h3 id="record-sent" className="text-xl">
          {entry.kind === "order" ? "Your order" : "What you sent"}
        </h3>
        <Sent entry={entry} />
      </section>
    </article>
  );
}
