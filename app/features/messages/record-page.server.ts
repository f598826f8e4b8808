import { data } from "react-router";
import { lastPage, pageParam } from "~/lib/paging";
import { noticeHtml } from "./message-email.server";
import { MESSAGES_MESSAGES } from "./messages.form";
import { listMessages, messageRecord, RECORD_PAGE_SIZE } from "./record.server";

/** The managers' record of messages sent (routes/staff/messages/messages.tsx): a page of them, newest first. */
export async function loadRecordPage(url: string) {
  const page = pageParam(url);
  const { rows, total } = await listMessages(page);
  return { rows, total, page, lastPage: lastPage(total, RECORD_PAGE_SIZE) };
}

/**
 * The fields shown as written, in braces: the record shows the message to nobody in particular,
 * and the names each member read in its place are their own.
 */
const NOBODY_IN_PARTICULAR = { id: "", firstName: "{first name}", lastName: "{last name}" };

/**
 * One message's page (routes/staff/messages/message.tsx), with what the press that led here did
 * (`?notice=sent` after sending, `already-sent` after a second press); a 404 for no such message.
 */
export async function loadMessagePage(id: string | undefined, url: string) {
  const message = id ? await messageRecord(id) : undefined;
  if (!message) throw data(MESSAGES_MESSAGES.notFound, { status: 404 });
  const { body, ...shown } = message;
  const notice = new URL(url).searchParams.get("notice");
  const { leftOut } = message.counts;
  return {
    message: { ...shown, source: body, bodyHtml: noticeHtml(body, NOBODY_IN_PARTICULAR) },
    notice:
      notice === "sent"
        ? MESSAGES_MESSAGES.sent(message.recipients.length - leftOut, leftOut)
        : notice === "already-sent"
          ? MESSAGES_MESSAGES.alreadySent
          : null,
  };
}
