import { Link } from "~/components/Link";

/**
 * The page shown for a missing page, a request that could not be read, or an unexpected
 * failure. It never shows error details: `message` is one of our own (a refused form).
 */
export function ErrorPage({ status, message }: { status: number; message?: string }) {
  const notFound = status === 404;
  const refused = status === 401 || status === 403;
  const unreadable = status === 400 && message !== undefined;
  const title = notFound
    ? "Lost on the Trail"
    : refused
      ? "No Entry"
      : unreadable
        ? "That Could Not Be Read"
        : "Something Went Wrong";
  return (
    <div className="mx-auto max-w-2xl px-4 py-20 text-center">
      <title>{`${title} · Hopewell`}</title>
      <p className="font-display text-6xl text-rust" aria-hidden="true">
        {status}
      </p>
      <h1 className="mt-4 text-3xl">{title}</h1>
      <hr className="divider my-6" />
      <p className="text-dust">
        {unreadable
          ? message
          : notFound
            ? "There's nothing at this address. The page may have moved, or the trail has gone cold."
            : refused
              ? "That request was refused. If you followed a link on this site, sign in and try again."
              : "Something broke on our end and we couldn't finish your request. Please try again in a moment."}
      </p>
      <p className="mt-8">
        <Link to="/" className="btn btn-secondary">
          Back to town
        </Link>
      </p>
    </div>
  );
}
