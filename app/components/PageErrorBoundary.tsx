import { isRouteErrorResponse } from "react-router";
import { ErrorPage } from "./ErrorPage";
import { Alert } from "./ui/Alert";

/**
 * A page's own error boundary. A failure (its reads, say) shows the page's heading with its
 * own message in place of the content; loaders let such failures throw, and React Router
 * hands them to `handleError` (entry.server.tsx), which logs each once. A refusal, a missing
 * page or a form that could not be read (a 4xx thrown on purpose) gets the site's error page.
 * Being the route's own boundary, not the root's, keeps the signed-in navigation: React Router
 * skips the loaders of the boundary route after a failed action.
 */
export function pageErrorBoundary(title: string, message: string) {
  return function ErrorBoundary({ error }: { error: unknown }) {
    if (isRouteErrorResponse(error) && error.status < 500) {
      return <ErrorPage status={error.status} message={error.status === 400 && typeof error.data === "string" ? error.data : undefined} />;
    }
    return (
      <div className="mx-auto max-w-3xl px-4 py-10">
        <title>{`${title} · Hopewell`}</title>
        <h1 className="text-center text-5xl">{title}</h1>
        <hr className="divider my-6" />
        <Alert kind="error">{message}</Alert>
      </div>
    );
  };
}
