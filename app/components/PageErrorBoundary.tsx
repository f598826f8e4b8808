import { isRouteErrorResponse, useRouteLoaderData, useSearchParams } from "react-router";
import type { Role } from "~/game/roles";
import { ErrorPage } from "./ErrorPage";
import { Alert } from "./ui/Alert";

/**
 * The part of the root route's data (root.tsx's loader) read here. Named here rather than taken
 * from root.tsx, which imports this module: the two would import each other.
 */
type RootData = { user: { role: Role } | null };

/** What a page's failure message may depend on: the address it was asked for and who asked. */
export type FailureContext = { search: URLSearchParams; role: Role | null };

/**
 * A page's own error boundary. A failure (its reads, say) shows the page's heading with its
 * own message in place of the content; loaders let such failures throw, and React Router
 * hands them to `handleError` (entry.server.tsx), which logs each once. A refusal, a missing
 * page or a form that could not be read (a 4xx thrown on purpose) gets the site's error page.
 * Being the route's own boundary, not the root's, keeps the signed-in navigation: React Router
 * skips the loaders of the boundary route after a failed action.
 */
export function pageErrorBoundary(title: string, message: string | ((context: FailureContext) => string)) {
  return function ErrorBoundary({ error }: { error: unknown }) {
    const [search] = useSearchParams();
    const role = useRouteLoaderData<RootData>("root")?.user?.role ?? null;
    if (isRouteErrorResponse(error) && error.status < 500) return <SiteErrorPage error={error} />;
    return (
      <div className="mx-auto max-w-3xl px-4 py-10">
        <title>{`${title} · Hopewell`}</title>
        <h1 className="text-center text-5xl">{title}</h1>
        <hr className="divider my-6" />
        <Alert kind="error">{typeof message === "string" ? message : message({ search, role })}</Alert>
      </div>
    );
  };
}

/**
 * The site's error page for an error: a missing page, a refusal, a form that could not be read
 * (with the kernel's message) or anything else. The root's boundary, and a route's own where the
 * route has no heading of its own to show (so the navigation stays signed in after a failed action).
 */
export function SiteErrorPage({ error }: { error: unknown }) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A 400 thrown by the form kernel carries its own message (see app/web/forms/kernel.ts).
  const message =
    isRouteErrorResponse(error) && status === 400 && typeof error.data === "string" ? error.data : undefined;
  return <ErrorPage status={status} message={message} />;
}
