import { formatClubTime } from "~/lib/dates";
import { countOf } from "~/lib/plural";
import { recordStatus, type RecordItem, type RecordReply } from "./record";

const TONES = {
  done: "border-sage text-sage",
  waiting: "border-brass text-brass",
} as const;

/** Where an entry stands, in words (the colour only repeats them). */
export function RecordStatusTag({ item }: { item: RecordItem }) {
  const { label, tone } = recordStatus(item);
  return (
    <span
      className={`inline-block rounded-full border px-3 py-0.5 text-sm font-bold ${TONES[tone]}`}
      data-testid="record-status"
    >
      {label}
    </span>
  );
}

/** Staff's replies to one entry, oldest first, as written; under a small heading of their own in a list (`titled`). */
export function RecordReplies({ replies, titled }: { replies: RecordReply[]; titled: boolean }) {
  if (replies.length === 0) return null;
  return (
    <div className="flex flex-col gap-2" data-testid="record-replies">
      {titled ? (
        <h4 className="text-sm font-bold text-dust">
          {replies.length === 1 ? "Staff replied" : `Staff replied (${countOf(replies.length, "reply", "replies")})`}
        </h4>
      ) : null}
      {replies.map((reply) => (
        <div key={reply.id} className="rounded-md border-l-4 border-brass bg-ink/60 px-3 py-2">
          <p className="text-sm text-dust">{formatClubTime(reply.createdAt)}</p>
          <p className="mt-1 break-words whitespace-pre-wrap">{reply.body}</p>
        </div>
      ))}
    </div>
  );
}
