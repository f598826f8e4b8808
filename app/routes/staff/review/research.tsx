import type { Route } from "./+types/research";
import { revalidateAfterConflict } from "~/web/revalidate";
import { Author, EntryPager } from "~/features/review/EventGroups";
import { formatClubTime } from "~/lib/dates";
import { QueuedEventGroups } from "~/features/review/QueuedEventGroups";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { readForm } from "~/web/forms/kernel";
import { EntryBody, QueueEntry } from "~/features/review/QueueEntry";
import { requireAccess } from "~/web/guards.server";
import { answerQueueForm } from "~/features/review/queue-actions.server";
import { loadQueuedReview, researchReview } from "~/features/review/event-reviews.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireAccess(context, request, "staff");
  return loadQueuedReview(request.url, staff.id, researchReview, (row) => row.id);
}

/** Taking an entry, handing it back, setting its status or replying to it. */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = requireAccess(context, request, "staff");
  return answerQueueForm(staff, "research", await readForm(request));
}

export default function ViewResearch({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <QueuedEventGroups
      title="Research Papers"
      noun="paper"
      review={loaderData}
      shown={loaderData.entries.map((row) => row.id)}
      result={actionData}
    >
      {loaderData.entries.map((paper) => (
        <article key={paper.id} className="rounded-md border border-timber/70 p-4">
          <QueueEntry
            entryId={paper.id}
            about={`${paper.firstName} ${paper.lastName}'s paper of ${formatClubTime(paper.createdAt)}`}
            queue={loaderData}
            result={actionData}
            lead={<Author firstName={paper.firstName} lastName={paper.lastName} at={paper.createdAt} heading />}
            body={
              <>
                <p>
                  <a href={`/research/${paper.id}/file`} target="_blank" rel="noopener">
                    {`Open ${paper.fileName}`}
                    <span className="sr-only"> (opens in a new tab)</span>
                  </a>
                </p>
                <EntryBody summary="Read the notes and sources">
                  <h4 className="font-bold text-brass">Research notes</h4>
                  <p className="whitespace-pre-wrap">{paper.research}</p>
                  <h4 className="font-bold text-brass">Sources</h4>
                  <p className="whitespace-pre-wrap">{paper.sources}</p>
                </EntryBody>
              </>
            }
          />
        </article>
      ))}
      <EntryPager page={loaderData.page} total={loaderData.total} pageSize={loaderData.pageSize} />
    </QueuedEventGroups>
  );
}

/** Someone else took the entry, or a reply's form was spent (409): the queue and its keys are read again. */
export const shouldRevalidate = revalidateAfterConflict;

export const meta: Route.MetaFunction = () => [{ title: "Research Papers · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Research Papers", "Failed to load research data");
