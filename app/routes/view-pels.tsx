import type { Route } from "./+types/view-pels";
import { Author, EntryPager, EventGroups } from "~/components/EventGroups";
import { PEL_QUESTIONS } from "~/game/pel";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { requireAccess } from "~/server/guards.server";
import { loadReview, reviewQuery, pelReview } from "~/server/reviews.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "staff");
  return loadReview(reviewQuery(request.url), pelReview);
}

export default function ViewPels({ loaderData }: Route.ComponentProps) {
  return (
    <EventGroups title="Post-Event Letters" noun="letter" groups={loaderData.groups} groupsPage={loaderData.groupsPage} groupsLastPage={loaderData.groupsLastPage} open={loaderData.open} total={loaderData.total}>
      {loaderData.entries.map(({ firstName, lastName, entry }) => (
        <article key={entry.id} className="rounded-md border border-timber/70 p-4">
          <Author firstName={firstName} lastName={lastName} at={entry.createdAt} />
          <h3 className="mt-1 text-xl">{entry.characterName}</h3>
          <dl className="mt-3 flex flex-col gap-3">
            {PEL_QUESTIONS.map((q) => (
              <div key={q.key}>
                <dt className="font-bold text-brass">{q.label}</dt>
                <dd className="whitespace-pre-wrap">{entry[q.key]}</dd>
              </div>
            ))}
          </dl>
        </article>
      ))}
      <EntryPager page={loaderData.page} total={loaderData.total} pageSize={loaderData.pageSize} />
    </EventGroups>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Post-Event Letters · Hopewell" }];

/** A failed read shows the page's own message (logged once by handleError). */
export const ErrorBoundary = pageErrorBoundary("Post-Event Letters", "Failed to load data");
