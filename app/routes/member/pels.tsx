import { useEffect, useMemo, useRef } from "react";
import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/pels";
import { EventSelect } from "~/features/events/EventSelect";
import { FormFootButton } from "~/components/ui/SubmitButton";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { SuccessPanel } from "~/components/SuccessPanel";
import { Alert } from "~/components/ui/Alert";
import { Field } from "~/components/ui/Field";
import { Asterisk, RequiredNote } from "~/components/ui/Required";
import { QuestionFields } from "~/features/club-facts/questions/QuestionFields";
import { allRequired } from "~/features/club-facts/questions/questions.facts";
import { questionsToAsk } from "~/features/club-facts/questions/questions.server";
import { RecordLink } from "~/features/my-record/RecordLink";
import { MESSAGES } from "~/web/forms/messages";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { pelFormFor } from "~/features/submissions/submissions.form";
import { DraftNotice } from "~/features/submissions/DraftNotice";
import { clearDraft, useEventDraft } from "~/features/submissions/use-event-draft";
import { PEL_ANSWER_MAX } from "~/game/pel";
import { TEXTAREA_ROWS } from "~/game/rules";
import { countOf } from "~/lib/plural";
import { useFormValidation } from "~/web/forms/use-form-validation";
import { getCharacter } from "~/features/members/characters.server";
import { failSafely, formRefusal, type FormAnswer } from "~/web/actions.server";
import { requireAccess } from "~/web/guards.server";
import { countPels, listPelEvents, readPelForm, submitPel } from "~/features/submissions/submissions.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const [events, character, written, questions] = await Promise.all([
    listPelEvents(),
    getCharacter(user.id),
    countPels(user.id),
    questionsToAsk("pel-questions"),
  ]);
  // A link for one event (the events page's "Write your post-event letter") chooses it, if a letter may be written about it.
  const asked = new URL(request.url).searchParams.get("event");
  return {
    events,
    chosenEventId: events.some((event) => event.id === asked) ? asked : null,
    characterName: character?.characterName ?? "",
    written,
    memberId: user.id,
    submissionKey: crypto.randomUUID(),
    /** The club's questions now; the letter keeps the wording of the version it was written against. */
    questions: questions.questions,
    questionsVersion: questions.version,
  };
}

type ActionData = FormAnswer & { submitted?: boolean; eventId?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const form = await readPelForm(request);
  if (!form.ok) return data<ActionData>(formRefusal(form), { status: 400 });
  return failSafely<ActionData>(
    "saving a PEL",
    { message: SUBMISSION_MESSAGES.pelFailed, values: form.values },
    async () => {
      if ((await submitPel(user, form.data)) === "unknown-event") {
        return data(
          {
            message: MESSAGES.requiredAll,
            errors: { eventId: "Please choose one of the listed events" },
            values: form.values,
          },
          { status: 400 },
        );
      }
      return data({ submitted: true, eventId: form.data.eventId });
    },
  );
}

export default function Pels({ loaderData, actionData }: Route.ComponentProps) {
  const { questions } = loaderData;
  const form = useMemo(() => pelFormFor(questions), [questions]);
  // The fields a draft keeps (by the questions' keys), and those whose text makes one worth keeping (the answers).
  const answers = useMemo(() => questions.map((q) => q.key), [questions]);
  const validation = useFormValidation(form, actionData?.errors);
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const draft = useEventDraft({
    formRef,
    form: "pel",
    memberId: loaderData.memberId,
    eventIds: loaderData.events.map((event) => event.id),
    fields: ["characterName", ...answers],
    writing: answers,
  });
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const values = actionData?.values ?? {};
  const errors = validation.errors;
  const message = validation.submitFailed ? MESSAGES.requiredAll : actionData?.message;
  const sentFor = actionData?.submitted ? actionData.eventId : undefined;

  // The letter is with the club: its draft on this device goes.
  useEffect(() => {
    if (sentFor) clearDraft("pel", loaderData.memberId, sentFor);
  }, [sentFor, loaderData.memberId]);

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-5xl">Post-Event Letter</h1>
      <hr className="divider my-6" />
      {actionData?.submitted ? (
        <SuccessPanel title="Letter Received!" to="/profile" destination="your profile">
          <p>Thank you. Your letter shapes what happens next in Hopewell.</p>
        </SuccessPanel>
      ) : (
        <Form
          ref={formRef}
          method="post"
          noValidate
          onBlur={validation.onBlur}
          onChange={(event) => {
            validation.onChange(event);
            draft.onChange(event);
          }}
          onSubmit={validation.onSubmit}
          className="panel flex flex-col gap-5"
        >
          <p className="text-dust" data-testid="pel-count">
            {`You have written ${countOf(loaderData.written, "post-event letter")}.`}{" "}
            <RecordLink kind="pel">
              {loaderData.written === 0
                ? "Open your record"
                : `Read ${loaderData.written === 1 ? "it" : "them"}, with staff's replies`}
            </RecordLink>
          </p>
          {allRequired(questions) ? (
            <RequiredNote>
              Every field is required, each marked with an asterisk <Asterisk />.
            </RequiredNote>
          ) : (
            <RequiredNote />
          )}
          <DraftNotice draft={draft} what="this letter" />
          {message ? <Alert kind="error">{message}</Alert> : null}
          <input type="hidden" name="submissionKey" value={values.submissionKey ?? loaderData.submissionKey} />
          <input type="hidden" name="questionsVersion" value={loaderData.questionsVersion} />
          <EventSelect
            events={loaderData.events}
            defaultValue={values.eventId ?? loaderData.chosenEventId ?? undefined}
            error={errors.eventId}
            emptyText="No events have been held yet"
            onChange={() => validation.clear("eventId")}
            required
          />
          <Field
            label="Character name"
            name="characterName"
            required
            markRequired
            maxLength={100}
            defaultValue={values.characterName ?? loaderData.characterName}
            error={errors.characterName}
          />
          <QuestionFields
            questions={questions}
            rows={TEXTAREA_ROWS.pel}
            maxLength={PEL_ANSWER_MAX}
            values={values}
            errors={errors}
            markRequired
          />
          <FormFootButton busy={submitting} busyLabel="Sending…">
            Submit Letter
          </FormFootButton>
        </Form>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Post-Event Letter · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Post-Event Letter", SUBMISSION_MESSAGES.loadFailed);
