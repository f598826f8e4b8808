import { useNavigation } from "react-router";
import { Link } from "~/components/Link";
import type { HistoryRow } from "../club-facts.server";
import { FactsHistory } from "../FactsHistory";
import { QUESTION_PAGES } from "./question-pages";
import { QuestionsForm, QuestionsNotice, QuestionsPreview } from "./QuestionsEditor";
import type { QuestionRow, QuestionsAnswer } from "./questions-page.server";
import type { QuestionKind } from "./questions.server";

/** A page of the club's questions (the post-event letter's, the application's): the editor, its preview, the history. */
export function QuestionsPage({
  kind,
  loaderData,
  actionData,
}: {
  kind: QuestionKind;
  loaderData: { version: number; rows: QuestionRow[]; history: HistoryRow[] };
  actionData?: QuestionsAnswer;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const page = QUESTION_PAGES[kind];
  // After a save the form starts again from what is saved; after a refusal or a preview, from what was typed.
  const rows = actionData?.rows ?? loaderData.rows;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <h1 className="text-center text-5xl">{page.title}</h1>
      <p className="text-center">
        <Link to="/tools/club">Back to the Club</Link> · <Link to={page.form.to}>{`See ${page.form.name}`}</Link>
      </p>
      <p className="text-dust">{page.about}</p>
      <QuestionsNotice answer={actionData} />
      {actionData?.preview ? <QuestionsPreview kind={kind} preview={actionData.preview} /> : null}
      <QuestionsForm
        key={actionData?.rows ? "typed" : `version-${loaderData.version}`}
        kind={kind}
        rows={rows}
        version={loaderData.version}
        answer={actionData}
        busy={busy}
      />
      <FactsHistory
        history={loaderData.history}
        version={loaderData.version}
        busy={busy}
        starting="The starting questions"
      />
    </div>
  );
}
