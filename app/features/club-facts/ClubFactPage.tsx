import type { ComponentType, ReactNode } from "react";
import { useNavigation } from "react-router";
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

type ListAnswer<Rows> = { ok?: string; message?: string; rows?: Rows };

/**
 * A page of one of the club's lists whose editor is its whole form (the cabins; the factions and
 * jobs): the frame, and the editor started again from what is saved after a save, or from what
 * was typed after a refusal.
 */
export function ClubListPage<Rows, Answer extends ListAnswer<Rows>>({
  title,
  also,
  starting,
  Editor,
  loaderData,
  actionData,
}: {
  title: string;
  also?: ReactNode;
  starting: string;
  Editor: ComponentType<{ rows: Rows; version: number; answer?: Answer; busy: boolean }>;
  loaderData: { rows: Rows; version: number; history: HistoryRow[] };
  actionData?: Answer;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <ClubFactPage
      title={title}
      also={also}
      answer={actionData}
      history={loaderData.history}
      version={loaderData.version}
      busy={busy}
      starting={starting}
    >
      <Editor
        key={actionData?.rows ? "typed" : `version-${loaderData.version}`}
        rows={actionData?.rows ?? loaderData.rows}
        version={loaderData.version}
        answer={actionData}
        busy={busy}
      />
    </ClubFactPage>
  );
}
