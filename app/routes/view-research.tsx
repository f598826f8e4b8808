import type { Route } from "./+types/view-research";
import { Author, EntryPager, EventGroups } from "~/components/EventGroups";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { requireAccess } from "~/server/guards.server";
import { loadReview, reviewQuery, researchReview } from "~/server/reviews.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "staff");
  return loadReview(reviewQuery(request.url), researchReview);
}

export default function ViewResearch({ loaderData }: Route.ComponentProps) {
  return (
    <EventGroups title="Research Papers" noun="paper" groups={loaderData.groups} groupsPage={loaderData.groupsPage} groupsLastPage={loaderData.groupsLastPage} open={loaderData.open} total={loaderData.total}>
      {loaderData.entries.map((paper) => (
        <article key={paper.id} className="rounded-md border border-timber/70 p-4">
          <Author firstName={paper.firstName} lastName={paper.lastName} at={paper.createdAt} />
          <h3 className="mt-3 font-bold text-brass">Research notes</h3>
          <p className="whitespace-pre-wrap">{paper.research}</p>
          <h3 className="mt-3 font-bold text-brass">Sources</h3>
          <p className="whitespace-pre-wrap">{paper.sources}</p>
          <p className="mt-3">
            <a href={`/research/${paper.id}/file`} target="_blank" rel="noopener">
              {`Open ${paper.fileName}`}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </p>
        </article>
      ))}
      <EntryPager page={loaderData.page} total={loaderData.total} pageSize={loaderData.pageSize} />
    </EventGroups>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Research Papers · Hopewell" }];

/** A failed read shows the page's own message (logged once by handleError). */
export const ErrorBoundary = pageErrorBoundary("Research Papers", "Failed to load research data");
