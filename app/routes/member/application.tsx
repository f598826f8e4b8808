import { useMemo, useState, type FormEvent } from "react";
import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/application";
import { ApplicationAnswers, StatusBadge } from "~/features/members/ApplicationAnswers";
import { FormFootButton } from "~/components/ui/SubmitButton";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { SuccessPanel } from "~/components/SuccessPanel";
import { ErrorSummary } from "~/components/ErrorSummary";
import { Field, FieldError } from "~/components/ui/Field";
import { QuestionFields } from "~/features/club-facts/questions/QuestionFields";
import { allRequired, type AskedQuestion } from "~/features/club-facts/questions/questions.facts";
import { questionsToAsk } from "~/features/club-facts/questions/questions.server";
import { applicationFormFor } from "~/features/members/application.form";
import { Asterisk, RequiredMark } from "~/components/ui/Required";
import { MESSAGES } from "~/web/forms/messages";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { APPLICATION_ANSWER_MAX, DISCORD_TAG_QUESTION, ROLE_PREFERENCE_QUESTION } from "~/game/application";
import { TEXTAREA_ROWS } from "~/game/rules";
import { useFormValidation } from "~/web/forms/use-form-validation";
import { getApplication, readApplicationForm, submitApplication } from "~/features/members/applications.server";
import { failSafely, formRefusal, type FormAnswer } from "~/web/actions.server";
import { requireAccess } from "~/web/guards.server";

const FAILED = "Failed to submit application. Please try again.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const [application, asked] = await Promise.all([getApplication(user.id), questionsToAsk("application-questions")]);
  // The club's questions now; the application keeps the wording of the version it was made against.
  return { application: application ?? null, questions: asked.questions, questionsVersion: asked.version };
}

type ActionData = FormAnswer & { submitted?: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const form = await readApplicationForm(request);
  if (!form.ok) return data<ActionData>(formRefusal(form), { status: 400 });
  return failSafely<ActionData>("saving an application", { message: FAILED, values: form.values }, async () => {
    await submitApplication(user, form.data);
    return data({ submitted: true });
  });
}

function ApplicationFormView({
  questions,
  questionsVersion,
  actionData,
}: {
  questions: AskedQuestion[];
  questionsVersion: number;
  actionData?: ActionData;
}) {
  const form = useMemo(() => applicationFormFor(questions), [questions]);
  const validation = useFormValidation(form, actionData?.errors);
  // Every question must be answered (the page says so); else the required ones are marked.
  const mark = !allRequired(questions);
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = validation.errors;
  const values = actionData?.values ?? {};
  // The page's own refusal, a new object each time so the summary takes focus again.
  const [local, setLocal] = useState<object | null>(null);
  const message = validation.submitFailed ? MESSAGES.requiredAll : actionData?.message;
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    validation.onSubmit(event);
    setLocal(event.defaultPrevented ? {} : null);
  }
  return (
    <Form
      method="post"
      noValidate
      onBlur={validation.onBlur}
      onChange={validation.onChange}
      onSubmit={onSubmit}
      className="flex flex-col gap-6"
    >
      <ErrorSummary message={message} answer={local ?? actionData} />
      <input type="hidden" name="questionsVersion" value={questionsVersion} />
      <section className="panel flex flex-col gap-5" aria-labelledby="about-you">
        <h2 id="about-you" className="text-2xl">
          About you
        </h2>
        <Field
          label={DISCORD_TAG_QUESTION.label}
          hint={DISCORD_TAG_QUESTION.hint}
          name="discordTag"
          autoComplete="off"
          required
          markRequired={mark}
          defaultValue={values.discordTag}
          error={errors.discordTag}
        />
        <fieldset aria-describedby={errors.rolePreference ? "rolePreference-error" : undefined}>
          <legend className="font-bold text-parchment">
            {ROLE_PREFERENCE_QUESTION.label}
            {mark ? <RequiredMark /> : null}
          </legend>
          <div className="mt-2 grid gap-3 sm:grid-cols-2">
            {ROLE_PREFERENCE_QUESTION.options.map((option) => (
              <label
                key={option.value}
                className="flex cursor-pointer gap-3 rounded-md border border-timber bg-ink p-3 has-[:checked]:border-brass"
              >
                <input
                  type="radio"
                  name="rolePreference"
                  value={option.value}
                  defaultChecked={values.rolePreference === option.value}
                  onChange={() => validation.clear("rolePreference")}
                  className="mt-1.5 accent-[var(--color-brass)]"
                />
                <span>
                  <span className="font-bold">{option.label}</span>
                  <span className="block text-sm text-dust">{option.hint}</span>
                </span>
              </label>
            ))}
          </div>
          {errors.rolePreference ? <FieldError id="rolePreference-error">{errors.rolePreference}</FieldError> : null}
        </fieldset>
      </section>
      <section className="panel flex flex-col gap-5" aria-labelledby="how-you-play">
        <h2 id="how-you-play" className="text-2xl">
          How you play
        </h2>
        <QuestionFields
          questions={questions}
          rows={TEXTAREA_ROWS.application}
          maxLength={APPLICATION_ANSWER_MAX}
          values={values}
          errors={errors}
          markRequired={mark}
        />
      </section>
      <FormFootButton busy={submitting} busyLabel="Sending…">
        Submit Application
      </FormFootButton>
    </Form>
  );
}

export default function Application({ loaderData, actionData }: Route.ComponentProps) {
  const { application } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-5xl">Player Application</h1>
      <hr className="divider my-6" />
      {actionData?.submitted ? (
        <SuccessPanel title="Application Submitted!" to="/" destination="the home page">
          <p>Thank you for applying to Hopewell. A manager will read your answers and write to you by email.</p>
        </SuccessPanel>
      ) : application ? (
        <section aria-labelledby="submitted" className="panel">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="submitted" className="text-2xl">
              Your application
            </h2>
            <StatusBadge status={application.status} />
          </div>
          <p className="mt-2 mb-6 text-dust">
            You have already applied; here is what you sent. A manager will be in touch.
          </p>
          <ApplicationAnswers application={application} />
        </section>
      ) : (
        <>
          <p className="mb-6 text-center text-dust">
            {allRequired(loaderData.questions) ? (
              "Tell us about yourself and how you like to play. Every question needs an answer; a few honest sentences are plenty."
            ) : (
              <>
                Tell us about yourself and how you like to play. Questions marked with an asterisk <Asterisk /> need an
                answer; a few honest sentences are plenty.
              </>
            )}
          </p>
          <ApplicationFormView
            questions={loaderData.questions}
            questionsVersion={loaderData.questionsVersion}
            actionData={actionData}
          />
        </>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Player Application · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Player Application", SUBMISSION_MESSAGES.loadFailed);
