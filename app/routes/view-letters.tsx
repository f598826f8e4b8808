import type { Route } from "./+types/view-letters";
import { Author } from "~/components/EventGroups";
import { Pager, ResultCount, SearchForm } from "~/components/tools/ListControls";
import { lastPage, REVIEW_PAGE_SIZE } from "~/lib/paging";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { requireAccess } from "~/server/guards.server";
import { listLetters, reviewQuery } from "~/server/reviews.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "staff");
  const { search, page } = reviewQuery(request.url);
  const found = await listLetters({ search, page });
  return { ...found, search, page, lastPage: lastPage(found.total, REVIEW_PAGE_SIZE) };
}

export default function ViewLetters({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-center text-5xl">Letters</h1>
      <hr className="divider my-6" />
      <div className="flex flex-col gap-4">
        <SearchForm search={loaderData.search} label="Search by sender, recipient or text" />
        <ResultCount total={loaderData.total} noun="letter" search={loaderData.search} />
        {loaderData.rows.map((letter) => (
          <article key={letter.id} className="panel p-4">
            <Author firstName={letter.firstName} lastName={letter.lastName} at={letter.createdAt} />
            <h2 className="mt-1 text-xl">{`To ${letter.recipient}`}</h2>
            <p className="mt-2 whitespace-pre-wrap">{letter.body}</p>
          </article>
        ))}
        <Pager page={loaderData.page} lastPage={loaderData.lastPage} />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Letters · Hopewell" }];

/** A failed read shows the page's own message (logged once by handleError). */
export const ErrorBoundary = pageErrorBoundary("Letters", "Failed to load letters");
