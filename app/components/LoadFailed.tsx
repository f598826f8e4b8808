import { isRouteErrorResponse } from "react-router";
import { ErrorPage } from "./ErrorPage";
import { Alert } from "./ui/Alert";

/**
 * The error boundary of a page whose reads failed: the page's heading with its own message
 * in place of the content, inside the site's layout. Loaders let such failures throw; React
 * Router hands them to `handleError` (entry.server.tsx), which logs each once. A refusal or a
 * missing page (a 4xx thrown on purpose) gets the site's error page instead.
 */
export function loadFailedBoundary(title: string, message: string) {
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
