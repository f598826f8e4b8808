import { useEffect } from "react";
import { Form } from "react-router";
import { Alert } from "~/components/ui/Alert";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { STAFF_REPLY_MAX } from "~/game/review-queue";
import { formatClubTime } from "~/lib/dates";
import type { QueueResult } from "./review-queue.form";
import type { StaffReply as Reply } from "./staff-replies.server";
import { SubmitButton } from "~/components/ui/SubmitButton";
import { queueAnchor, useActionAt, useBusy } from "./QueueControls";

export type { Reply };

/**
 * Staff's replies to an entry, oldest first, and, while the entry is being answered, a box to
 * write another: the member reads them on their profile, and sending one marks the entry
 * answered. Text only, shown as typed.
 */
export function StaffReply({
  entryId,
  replies,
  replyKey,
  to,
  result,
  answering,
}: {
  entryId: string;
  replies: Reply[];
  replyKey: string;
  to: string;
  result?: QueueResult;
  answering: boolean;
}) {
  const busy = useBusy(entryId, "reply");
  const actionAt = useActionAt(queueAnchor(entryId));
  const failed = result && !result.ok ? result : undefined;
  const sent = result?.ok;
  // A reply sent empties the box; the form itself stays, so the keyboard stays on "Send reply".
  const boxId = `reply-${entryId}`;
  useEffect(() => {
    const box = document.getElementById(boxId);
    if (sent && box instanceof HTMLTextAreaElement) box.value = "";
  }, [sent, boxId, replies.length]);
  return (
    <section aria-label={`Replies to ${to}`} className="flex flex-col gap-2" data-testid="staff-replies">
      {replies.length > 0 ? (
        <>
          <h4 className="font-bold text-brass">Replies sent</h4>
          <ol className="flex flex-col gap-2">
            {replies.map((reply) => (
              <li key={reply.id} className="rounded-md border border-timber/60 p-3">
                <p className="text-sm text-dust">{`${reply.authorName ?? "A former staff member"} · ${formatClubTime(reply.createdAt)}`}</p>
                <p className="whitespace-pre-wrap">{reply.body}</p>
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {sent ? <Alert kind="success">{sent}</Alert> : null}
      {failed?.message && !failed.errors?.body ? <Alert kind="error">{failed.message}</Alert> : null}
      {answering ? (
        <Form method="post" action={actionAt} noValidate preventScrollReset className="flex flex-col gap-2">
          <input type="hidden" name="intent" value="reply" />
          <input type="hidden" name="entryId" value={entryId} />
          {/* The page's own key, also after a refusal: nothing was saved under the one sent. */}
          <input type="hidden" name="submissionKey" value={replyKey} />
          <TextAreaField
            label={`Reply to ${to}`}
            hint="The member reads it on their profile. Sending it marks the entry answered."
            name="body"
            id={boxId}
            rows={3}
            maxLength={STAFF_REPLY_MAX}
            required
            defaultValue={failed?.values?.body}
            error={failed?.errors?.body}
          />
          <SubmitButton className="btn btn-primary self-start" busy={busy}>
            {busy ? "Sending…" : "Send reply"}
          </SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}
