import { useEffect, useRef } from "react";
import { Alert } from "~/components/ui/Alert";

/**
 * The message about a refused form, at the top of the form. Long forms are sent from a
 * button far below it, so each new refusal (`answer`: the server's reply or the page's own
 * check, a new object each time) moves focus here: it scrolls into view and a screen
 * reader reads it from there.
 */
export function ErrorSummary({ message, answer }: { message?: string | null; answer: unknown }) {
  const ref = useRef<HTMLDivElement>(null);
  // Each answer moves focus once: not again when an older answer shows through later.
  const focused = useRef(new WeakSet<object>());
  useEffect(() => {
    if (!message || !answer || typeof answer !== "object" || focused.current.has(answer)) return;
    focused.current.add(answer);
    ref.current?.focus();
  }, [answer, message]);
  if (!message) return null;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      data-testid="error-summary"
      className="scroll-mt-24 rounded-md focus:outline-none focus-visible:ring-2 focus-visible:ring-brass"
    >
      <Alert kind="error">{message}</Alert>
    </div>
  );
}
