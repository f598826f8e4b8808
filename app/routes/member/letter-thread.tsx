import { createContext, data, Form, useNavigation } from "react-router";
import { FormFootButton } from "~/components/ui/SubmitButton";
import { Link } from "~/components/Link";
import type { Route } from "./+types/letter-thread";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { parseForm } from "~/web/forms/kernel";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { LETTER_MESSAGES } from "~/features/letters/letters.messages";
import { type LetterSentAnswer, ReplyForm } from "~/features/letters/letters.form";
import { deliveryNote, LETTER_STATUS_FOR_WRITER, UNSIGNED } from "~/game/letters";
import { TEXTAREA_ROWS } from "~/game/rules";
import { formatClubTime } from "~/lib/dates";
import { failSafely } from "~/web/actions.server";
import { requireAccess } from "~/web/guards.server";
import { letterThread, markThreadRead } from "~/features/letters/letter-threads.server";
import { replyToLetter } from "~/features/letters/letters.server";
import { userContext } from "~/web/request-context";

/** The letters this visit marked read, for the page to show as new. */
const justRead = createContext<string[]>([]);

/**
 * Opening the thread reads it before any loader runs, so the navigation's unread count (the
 * root's loader, run alongside this page's) already leaves these letters out.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context, params }, next) => {
    const user = context.get(userContext);
    if (user && request.method === "GET") context.set(justRead, await markThreadRead(user.id, params.id));
    return next();
  },
];

/** One letter's thread, as the signed-in member sees it: only their own letters and those delivered to them. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const thread = await letterThread(user.id, params.id, context.get(justRead));
  // Someone else's letter, one not yet released, or none at all: the same answer.
  if (!thread) throw data(LETTER_MESSAGES.notFound, { status: 404 });
  return { ...thread, submissionKey: crypto.randomUUID() };
}

type ActionData = LetterSentAnswer;

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const form = await parseForm(request, ReplyForm);
  if (!form.ok) {
    if (form.values.intent !== "reply")
      return data<ActionData>({ message: "That action is not available here." }, { status: 400 });
    return data<ActionData>(
      { message: form.errors.body ?? SUBMISSION_MESSAGES.fillAllFields, errors: form.errors, values: form.values },
      { status: 400 },
    );
  }
  return failSafely<ActionData>(
    "saving a reply to a letter",
    { message: SUBMISSION_MESSAGES.letterFailed, values: form.values },
    async () => {
      const sent = await replyToLetter(user, form.data);
      if (!sent) return data({ message: LETTER_MESSAGES.notFound }, { status: 404 });
      if (sent === "writer-gone") return data({ message: LETTER_MESSAGES.writerGone }, { status: 409 });
      return data({ sent: true, delivery: sent.delivery, recipient: sent.recipient });
    },
  );
}

export default function LetterThread({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const { letters, replyTo } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-5xl">Letters</h1>
      <hr className="divider my-6" />
      <p className="mb-4">
        <Link to="/letters?tab=box">Back to your letter box</Link>
      </p>
      <ol className="flex flex-col gap-4" aria-label="The letters of this thread, oldest first">
        {letters.map((letter) => (
          <li key={letter.id}>
            <article
              className={`panel p-4 ${letter.mine ? "md:ml-12" : "md:mr-12"}`}
              aria-labelledby={`letter-${letter.id}`}
            >
              <h2 id={`letter-${letter.id}`} className="text-xl">
                {letter.mine ? `You wrote to ${letter.to}` : `From ${letter.from}`}
              </h2>
              <p className="text-sm text-dust">
                {[
                  letter.mine ? `Signed ${letter.from}` : `To ${letter.to}`,
                  formatClubTime(letter.at),
                  letter.status ? LETTER_STATUS_FOR_WRITER[letter.status] : null,
                  letter.unread ? "New" : null,
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </p>
              <p className="mt-3 whitespace-pre-wrap">{letter.body}</p>
            </article>
          </li>
        ))}
      </ol>
      {actionData?.sent ? (
        <div className="mt-6">
          <Alert kind="success">{`Your reply is on its way. ${deliveryNote(actionData.delivery, actionData.recipient)}`}</Alert>
        </div>
      ) : null}
      {replyTo?.writerGone ? (
        <p className="panel mt-6 text-dust" role={actionData?.message ? "alert" : undefined}>
          {LETTER_MESSAGES.writerGone}
        </p>
      ) : replyTo ? (
        <Form method="post" noValidate className="panel mt-6 flex flex-col gap-4">
          <h2 className="text-2xl">{`Reply to ${replyTo.from}`}</h2>
          {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
          <input type="hidden" name="intent" value="reply" />
          <input type="hidden" name="replyTo" value={replyTo.id} />
          {/* A fresh key after each reply sent, so the next one is a new letter. */}
          <input
            type="hidden"
            name="submissionKey"
            value={
              actionData?.sent
                ? loaderData.submissionKey
                : (actionData?.values?.submissionKey ?? loaderData.submissionKey)
            }
          />
          <TextAreaField
            key={actionData?.sent ? loaderData.submissionKey : "reply"}
            label="Your reply"
            name="body"
            rows={TEXTAREA_ROWS.letter}
            maxLength={10_000}
            required
            defaultValue={actionData?.sent ? "" : actionData?.values?.body}
            error={actionData?.errors?.body}
          />
          <FormFootButton busy={submitting} busyLabel="Sending…">
            Send Reply
          </FormFootButton>
        </Form>
      ) : (
        <p className="mt-6 text-dust">You can reply here once an answer arrives.</p>
      )}
    </div>
  );
}

/** Named by whom the thread is with: the letter box is "Letter Box", each thread its own. */
export const meta: Route.MetaFunction = ({ loaderData }) => {
  const first = loaderData?.letters[0];
  const title = first
    ? first.mine
      ? `Your letter to ${first.to}`
      : first.from === UNSIGNED
        ? "An unsigned letter"
        : `Letter from ${first.from}`
    : "Letter thread";
  return [{ title: `${title} · Letters · Hopewell` }];
};

export const ErrorBoundary = pageErrorBoundary("Letters", "Failed to load letters");
