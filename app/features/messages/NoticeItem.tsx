import { DocumentHtml } from "~/components/DocumentHtml";
import { Icon } from "~/components/Icon";
import { formatClubTime } from "~/lib/dates";
import { NOTICES_MESSAGES } from "./choices.messages";
import type { Notice } from "./notices.server";

/** What became of the member's email of this message, in a line. */
function emailState(notice: Omit<Notice, "html">): string {
  switch (notice.status) {
    case "sent":
      return NOTICES_MESSAGES.emailed(formatClubTime(notice.emailedAt ?? notice.sentAt));
    case "queued":
    case "sending":
      return NOTICES_MESSAGES.sending;
    case "failed":
      return NOTICES_MESSAGES.failed;
    case "interrupted":
      return NOTICES_MESSAGES.interrupted;
    case "left-out":
      return notice.suspended ? NOTICES_MESSAGES.notEmailedSuspended : NOTICES_MESSAGES.notEmailed(notice.choice);
  }
}

/**
 * One message in the member's Notices: its subject, when and to whom it went, whether it was
 * emailed, and its words in a native <details> (opens without scripts, and the keyboard and screen
 * readers know it). The body's HTML is made on the server (only formatted text's safe subset).
 */
export function NoticeItem({
  notice,
  open,
}: {
  notice: Omit<Notice, "html"> & { html: string | null };
  open: boolean;
}) {
  const headingId = `notice-heading-${notice.id}`;
  return (
    <li>
      <article
        aria-labelledby={headingId}
        className="flex flex-col gap-2 rounded-md border border-timber/70 p-3"
        data-testid="notice"
      >
        <h3 id={headingId} className="font-bold break-words text-brass">
          {notice.subject}
        </h3>
        <p className="text-sm text-dust">
          <time dateTime={notice.sentAt}>{formatClubTime(notice.sentAt)}</time>
          {` · ${NOTICES_MESSAGES.to(notice.group)}`}
        </p>
        <p className={`text-sm ${notice.status === "left-out" ? "text-parchment" : "text-dust"}`}>
          {emailState(notice)}
        </p>
        <details open={open} className="group rounded-md border border-timber/70">
          <summary className="flex min-h-11 cursor-pointer items-center gap-2 px-3 py-2 font-bold text-brass">
            <Icon name="chevron-down" className="size-5 shrink-0 transition-transform group-open:rotate-180" />
            <span>
              {NOTICES_MESSAGES.read}
              <span className="sr-only">{`: ${notice.subject}`}</span>
            </span>
          </summary>
          <DocumentHtml
            id={`notice-${notice.id}`}
            html={notice.html}
            className="prose-western border-t border-timber/70 p-3 break-words"
          />
        </details>
      </article>
    </li>
  );
}
