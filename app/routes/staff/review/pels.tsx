import type { Route } from "./+types/pels";
import { revalidateAfterConflict } from "~/web/revalidate";
import { Author, EntryPager } from "~/features/review/EventGroups";
import { formatClubTime } from "~/lib/dates";
import { QueuedEventGroups } from "~/features/review/QueuedEventGroups";
import { EntryBody, QueueEntry } from "~/features/review/QueueEntry";
import { WrittenAnswerRows } from "~/features/club-facts/questions/QuestionFields";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { readForm } from "~/web/forms/kernel";
import { requireAccess } from "~/web/guards.server";
import { answerQueueForm } from "~/features/review/queue-actions.server";
import { loadQueuedReview, pelReview } from "~/features/review/event-reviews.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireAccess(context, request, "staff");
  return loadQueuedReview(request.url, staff.id, pelReview, (row) => row.entry.id);
}

/** Taking a letter, handing it back, setting its status or replying to it. */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = requireAccess(context, request, "staff");
  return answerQueueForm(staff, "pel", await readForm(request));
}

export default function ViewPels({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <QueuedEventGroups
      title="Post-Event Letters"
      noun="letter"
      review={loaderData}
      shown={loaderData.entries.map((row) => row.entry.id)}
      result={actionData}
    >
      {loaderData.entries.map(({ firstName, lastName, entry }) => (
        <article key={entry.id} className="rounded-md border border-timber/70 p-4">
          <QueueEntry
            entryId={entry.id}
            about={`${firstName} ${lastName}'s letter of ${formatClubTime(entry.createdAt)}`}
            queue={loaderData}
            result={actionData}
            lead={<Author firstName={firstName} lastName={lastName} at={entry.createdAt} heading />}
            body={
              <EntryBody summary={`Read the letter from ${entry.characterName}`}>
                {/* Each question as the member was asked it, whatever the club asks now. */}
                <dl className="flex flex-col gap-3">
                  <WrittenAnswerRows answers={entry.answers} />
                </dl>
              </EntryBody>
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

export const meta: Route.MetaFunction = () => [{ title: "Post-Event Letters · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Post-Event Letters", "Failed to load data");
