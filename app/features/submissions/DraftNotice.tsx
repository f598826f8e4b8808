import { formatClubTime } from "~/lib/dates";
import type { EventDraft } from "./use-event-draft";

/**
 * Says that a draft is kept on this device, once the page knows it can be (never without
 * JavaScript), and that one was restored, with a way to drop it.
 */
export function DraftNotice({ draft, what }: { draft: EventDraft; what: string }) {
  if (!draft.kept) return null;
  return (
    <div className="flex flex-col gap-2 text-sm text-dust" data-testid="draft-notice">
      <p>{`A draft of ${what} is kept on this device as you write, and cleared once it is sent or you sign out.`}</p>
      <div role="status">
        {draft.restoredAt ? (
          <div className="flex flex-wrap items-center gap-3 rounded-md border border-brass/70 bg-brass/10 px-3 py-2 text-parchment">
            <p>{`Your draft from ${formatClubTime(new Date(draft.restoredAt))} is back in the form.`}</p>
            <button type="button" className="btn btn-secondary" onClick={draft.discard}>
              Discard draft
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}
