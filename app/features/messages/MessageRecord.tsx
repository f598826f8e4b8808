import { Link } from "~/components/Link";
import { formatClubTime } from "~/lib/dates";
import type { CopyCounts, CopyState, MessageRecord, RecordEntry } from "./record.server";

/** What a message's page and list rows read from the loader (dates arrive as they were sent). */
type Dated<T> = Omit<T, "createdAt"> & { createdAt: Date | string };

const SENDER_GONE = "A deleted account";

/** How a message's copies stand: sent, waiting, failed, left out, and interrupted when any were. */
export function CopyCountsList({ counts }: { counts: CopyCounts }) {
  const shown: [string, number][] = [
    ["Sent", counts.sent],
    ["Waiting", counts.waiting],
    ["Failed", counts.failed],
    ["Left out", counts.leftOut],
    ...(counts.interrupted > 0 ? [["Interrupted", counts.interrupted] as [string, number]] : []),
  ];
  return (
    <dl className="flex flex-wrap gap-x-5 gap-y-1" data-testid="copy-counts">
      {shown.map(([label, n]) => (
        <div key={label} className="flex gap-1">
          <dt className="text-dust">{label}</dt>
          <dd className={label === "Failed" && n > 0 ? "font-bold text-blood" : ""}>{n}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The record: each message sent, newest first, with its group and how its copies stand. */
export function MessageList({ rows }: { rows: Dated<RecordEntry>[] }) {
  if (rows.length === 0) return <p className="text-dust">No message has been sent yet.</p>;
  return (
    <ul className="flex flex-col divide-y divide-timber">
      {rows.map((row) => (
        <li key={row.id} className="flex flex-col gap-2 py-4">
          <h2 className="text-xl break-words">
            <Link to={`/tools/messages/${row.id}`}>{row.subject}</Link>
          </h2>
          <p className="text-sm text-dust">
            {`${formatClubTime(row.createdAt)} · ${row.sender ?? SENDER_GONE} · `}
            <span className="break-words">{row.audienceLabel}</span>
          </p>
          <CopyCountsList counts={row.counts} />
        </li>
      ))}
    </ul>
  );
}

const STATE_LABELS: Record<CopyState, string> = {
  sent: "Sent",
  waiting: "Waiting",
  failed: "Failed",
  discarded: "Not sent",
  interrupted: "Interrupted",
  "left-out": "Left out",
};

const STATE_STYLES: Partial<Record<CopyState, string>> = {
  failed: "bg-blood/20",
  discarded: "bg-blood/20",
  interrupted: "bg-brass/20",
};

type ShownMessage = Dated<Omit<MessageRecord, "body">> & { source: string; bodyHtml: string };

/** One message: what it said, to whom and by whom, and every member's copy with its state and why. */
export function MessageView({ message }: { message: ShownMessage }) {
  return (
    <>
      <section aria-labelledby="message-subject" className="panel flex flex-col gap-4">
        <h2 id="message-subject" className="text-2xl break-words">
          {message.subject}
        </h2>
        <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[9rem_1fr]">
          <dt className="text-dust">Sent by</dt>
          <dd>{message.sender ?? SENDER_GONE}</dd>
          <dt className="text-dust">Sent</dt>
          <dd>{formatClubTime(message.createdAt)}</dd>
          <dt className="text-dust">To</dt>
          <dd className="break-words">{message.audienceLabel}</dd>
          <dt className="text-dust">On Discord</dt>
          <dd>{message.discord ? "Yes, posted to the club's channel" : "No"}</dd>
        </dl>
        <CopyCountsList counts={message.counts} />
        {/* Made by formattedTextHtml on the server: only the safe subset, the fields left as written. */}
        <div
          className="prose-western rounded-md border border-timber p-4 break-words"
          data-testid="message-body"
          dangerouslySetInnerHTML={{ __html: message.bodyHtml }}
        />
        <details>
          <summary className="cursor-pointer">As written</summary>
          <pre className="mt-2 overflow-x-auto rounded-md bg-ink p-4 text-sm whitespace-pre-wrap">{message.source}</pre>
        </details>
      </section>
      <section aria-labelledby="recipients-heading" className="panel flex flex-col gap-3">
        <h2 id="recipients-heading" className="text-2xl">
          {`Who it was for (${message.recipients.length})`}
        </h2>
        <ul className="flex flex-col divide-y divide-timber">
          {message.recipients.map((recipient) => (
            <li key={recipient.userId} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-baseline sm:gap-3">
              <Link to={`/tools/members/${recipient.userId}`} className="sm:w-56 sm:shrink-0">
                {recipient.name}
              </Link>
              <span className="flex flex-col">
                <span>
                  <span
                    className={`rounded px-2 py-0.5 text-sm font-bold ${STATE_STYLES[recipient.state] ?? "bg-ash"}`}
                  >
                    {STATE_LABELS[recipient.state]}
                  </span>
                  {recipient.state === "sent" && recipient.sentAt ? (
                    <span className="ml-2 text-sm text-dust">{formatClubTime(recipient.sentAt)}</span>
                  ) : null}
                </span>
                {recipient.reason ? <span className="text-sm break-words text-dust">{recipient.reason}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
