import { useMemo, useState } from "react";
import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/character";
import { FormFootButton } from "~/components/ui/SubmitButton";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { SuccessPanel } from "~/components/SuccessPanel";
import { Alert } from "~/components/ui/Alert";
import { Field, FieldError } from "~/components/ui/Field";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { parseForm } from "~/web/forms/kernel";
import { BACKSTORY_MAX } from "~/features/members/character.limits";
import { characterForm } from "~/features/members/character.form";
import { MESSAGES } from "~/web/forms/messages";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import {
  factionOnlyHint,
  factionsOffered,
  jobsOffered,
  type Offered,
} from "~/features/club-facts/factions/faction-choices";
import { TEXTAREA_ROWS } from "~/game/rules";
import { useFormValidation } from "~/web/forms/use-form-validation";
import { useHydrated } from "~/lib/use-hydrated";
import { characterChoices, saveCharacter } from "~/features/members/characters.server";
import { failSafely, formRefusal, type FormAnswer } from "~/web/actions.server";
import { requireAccess } from "~/web/guards.server";

const FAILED = "Failed to save character. Please try again.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "character");
  const { character, list, saved } = await characterChoices(user.id);
  return {
    list,
    saved,
    character: character
      ? {
          characterName: character.characterName,
          faction: character.faction,
          job: character.job,
          backstory: character.backstory,
        }
      : null,
  };
}

type ActionData = FormAnswer & { saved?: boolean; created?: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "character");
  const { list, saved } = await characterChoices(user.id);
  const form = await parseForm(request, characterForm(list, saved));
  if (!form.ok) return data<ActionData>(formRefusal(form), { status: 400 });
  return failSafely<ActionData>("saving a character", { message: FAILED, values: form.values }, async () => {
    const { created } = await saveCharacter(user, form.data);
    return data({ saved: true, created });
  });
}

const selectClass =
  "w-full rounded-md border border-timber bg-ink px-3 py-2 text-parchment focus:border-brass aria-[invalid=true]:border-blood";

export default function Character({ loaderData, actionData }: Route.ComponentProps) {
  const initial = actionData?.values ?? loaderData.character ?? {};
  const { list, saved } = loaderData;
  const schema = useMemo(() => characterForm(list, saved), [list, saved]);
  const validation = useFormValidation(schema, actionData?.errors);
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [faction, setFaction] = useState(initial.faction ?? "");
  const [job, setJob] = useState(initial.job ?? "");
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = validation.errors;
  const message = validation.submitFailed ? MESSAGES.requiredAll : actionData?.message;
  const factions = factionsOffered(list, saved);
  // Without JavaScript every job is offered and the server checks the pair.
  const jobs = jobsOffered(list, saved, hydrated && faction ? faction : undefined);
  const hint = factionOnlyHint(list);

  function chooseFaction(next: string) {
    setFaction(next);
    validation.clear("faction");
    // A job the new faction may not take is cleared, so it cannot be sent by mistake.
    if (job && !(next && jobsOffered(list, saved, next).some((offered) => offered.name === job))) setJob("");
  }

  if (actionData?.saved) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-10">
        <SuccessPanel
          title={actionData.created ? "Character Created!" : "Character Saved!"}
          to="/profile"
          destination="your profile"
        >
          <p>Your settler's papers are in order. See you in Hopewell.</p>
        </SuccessPanel>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-5xl">Character Builder</h1>
      <hr className="divider my-6" />
      <Form
        method="post"
        noValidate
        onBlur={validation.onBlur}
        onChange={validation.onChange}
        onSubmit={validation.onSubmit}
        className="panel flex flex-col gap-5"
      >
        {loaderData.character ? (
          <p className="text-dust">You already have a character; saving here updates them.</p>
        ) : null}
        {message ? <Alert kind="error">{message}</Alert> : null}
        <Field
          label="Character name"
          name="characterName"
          required
          maxLength={100}
          defaultValue={initial.characterName}
          error={errors.characterName}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <div className="flex flex-col gap-1">
            <label htmlFor="faction" className="font-bold">
              Faction
            </label>
            <select
              id="faction"
              name="faction"
              value={faction}
              onChange={(e) => chooseFaction(e.currentTarget.value)}
              aria-invalid={errors.faction ? true : undefined}
              aria-describedby={errors.faction ? "faction-error" : undefined}
              className={selectClass}
            >
              <option value="">Choose a faction…</option>
              <Options offered={factions} />
            </select>
            {errors.faction ? <FieldError id="faction-error">{errors.faction}</FieldError> : null}
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor="job" className="font-bold">
              Job
            </label>
            <select
              id="job"
              name="job"
              value={job}
              onChange={(e) => {
                setJob(e.currentTarget.value);
                validation.clear("job");
              }}
              aria-invalid={errors.job ? true : undefined}
              aria-describedby={errors.job ? "job-error" : hint ? "job-hint" : undefined}
              className={selectClass}
            >
              <option value="">Choose a job…</option>
              <Options offered={jobs} />
            </select>
            {hint ? (
              <p id="job-hint" className="text-sm text-dust">
                {hint}
              </p>
            ) : null}
            {errors.job ? <FieldError id="job-error">{errors.job}</FieldError> : null}
          </div>
        </div>
        <TextAreaField
          label="Backstory"
          hint="Who were they before Hopewell, and what brought them to a mining town at the edge of the territory?"
          name="backstory"
          rows={TEXTAREA_ROWS.backstory}
          maxLength={BACKSTORY_MAX}
          required
          defaultValue={initial.backstory}
          error={errors.backstory}
        />
        <FormFootButton busy={submitting} busyLabel="Saving…">
          Save Character
        </FormFootButton>
      </Form>
    </div>
  );
}

/** A select's choices: a retired one (the character's own, kept) says so. */
function Options({ offered }: { offered: Offered[] }) {
  return offered.map(({ name, retired }) => (
    <option key={name} value={name}>
      {retired ? `${name} (retired)` : name}
    </option>
  ));
}

export const meta: Route.MetaFunction = () => [{ title: "Character Builder · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Character Builder", SUBMISSION_MESSAGES.loadFailed);
