import type { Route } from "./+types/club";
import { Link } from "~/components/Link";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { loadClubHub } from "~/features/club-facts/club-hub.server";
import { formatClubTime } from "~/lib/dates";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return { pages: await loadClubHub() };
}

/** The club's own facts, one page each, with who changed each last. */
export default function ClubFacts({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <h1 className="text-center text-5xl">The Club</h1>
      <p className="text-center">
        <Link to="/tools">Back to Tools</Link>
      </p>
      <p className="text-dust">
        What the club changes between seasons. Each page keeps every saved version, with a way back to any of them.
      </p>
      <ul className="grid gap-3 sm:grid-cols-2">
        {loaderData.pages.map((page) => (
          <li key={page.kind} className="panel flex flex-col gap-1">
            <h2 className="text-xl">
              <Link to={page.to}>{page.title}</Link>
            </h2>
            <p>{page.about}</p>
            <p className="text-sm text-dust">
              {page.last
                ? `Version ${page.last.version}, saved ${formatClubTime(page.last.at)} by ${page.last.by}`
                : "As the site shipped: never changed"}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "The Club · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary(
  "The Club",
  "The club's pages could not be loaded. Please try again in a moment.",
);
