import type { ReactNode } from "react";
import { Link } from "~/components/Link";
import { Alert } from "~/components/ui/Alert";
import type { HistoryRow } from "./club-facts.server";
import { FactsHistory } from "./FactsHistory";

/**
 * The frame of a page of the club's facts: its title, the way back to the Club (and `also`, a link
 * to where the facts are seen), the outcome of the last press, the page's own form (`children`),
 * and the history below it.
 */
export function ClubFactPage({
  title,
  also,
  answer,
  history,
  version,
  busy,
  starting,
  children,
}: {
  title: string;
  also?: ReactNode;
  answer?: { ok?: string; message?: string };
  history: HistoryRow[];
  version: number;
  busy: boolean;
  /** The starting version's name in the history: "The starting cabins". */
  starting: string;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <h1 className="text-center text-5xl">{title}</h1>
      <p className="text-center">
        <Link to="/tools/club">Back to the Club</Link>
        {also ? <> · {also}</> : null}
      </p>
      {answer?.ok ? <Alert kind="success">{answer.ok}</Alert> : null}
      {answer?.message ? <Alert kind="error">{answer.message}</Alert> : null}
      {children}
      <FactsHistory history={history} version={version} busy={busy} starting={starting} />
    </div>
  );
}
