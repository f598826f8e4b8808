import { Form, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import { SavedNotice } from "~/components/SavedNotice";
import { Alert } from "~/components/ui/Alert";
import { SubmitButton } from "~/components/ui/SubmitButton";
import { MESSAGE_CHOICES } from "~/game/messages";
import { ALWAYS_SENT, CHOICE_OPTIONS, CHOICES_MESSAGES } from "./choices.messages";
import type { ChoicesAnswer, MessageChoices } from "./choices.server";

/**
 * The profile's "Messages from the club": which of the managers' messages the member is emailed
 * (a form of its own, `intent=choices`, that works without scripts), and what is emailed
 * whatever they choose.
 */
export function MessageChoicesSection({
  choices,
  answer,
}: {
  choices: MessageChoices;
  /** The answer to this form alone (`intent=choices`). */
  answer?: Omit<ChoicesAnswer, "intent">;
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state !== "idle" && navigation.formMethod === "POST" && navigation.formData?.get("intent") === "choices";
  return (
    <section aria-labelledby="club-messages-heading" id="club-messages" className="panel flex flex-col gap-4">
      <h2 id="club-messages-heading" className="text-2xl">
        {CHOICES_MESSAGES.heading}
      </h2>
      <p className="text-sm text-dust">{CHOICES_MESSAGES.intro}</p>
      {answer?.saved ? <SavedNotice key={answer.at} message={CHOICES_MESSAGES.saved} /> : null}
      {answer?.message ? <Alert kind="error">{answer.message}</Alert> : null}
      <Form method="post" className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="choices" />
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-dust">{CHOICES_MESSAGES.legend}</legend>
          {MESSAGE_CHOICES.map((choice) => (
            <div key={choice} className="flex items-start gap-3">
              <input
                type="checkbox"
                id={`choice-${choice}`}
                name={choice}
                defaultChecked={choices[choice]}
                aria-describedby={`choice-${choice}-explained`}
                className="mt-1 size-5 shrink-0"
              />
              <div className="flex flex-col">
                <label htmlFor={`choice-${choice}`} className="font-bold">
                  {CHOICE_OPTIONS[choice].label}
                </label>
                <span id={`choice-${choice}-explained`} className="text-sm text-dust">
                  {CHOICE_OPTIONS[choice].explanation}
                </span>
              </div>
            </div>
          ))}
        </fieldset>
        <SubmitButton className="btn btn-primary self-start" busy={busy}>
          {busy ? CHOICES_MESSAGES.saving : CHOICES_MESSAGES.save}
        </SubmitButton>
      </Form>
      <p className="text-sm">
        {CHOICES_MESSAGES.kept} <Link to="/notices">{CHOICES_MESSAGES.notices}</Link>.
      </p>
      <div className="flex flex-col gap-2 border-t border-timber/70 pt-4">
        <h3 className="text-xl">{CHOICES_MESSAGES.alwaysHeading}</h3>
        <p className="text-sm text-dust">{CHOICES_MESSAGES.alwaysIntro}</p>
        <ul className="flex flex-col gap-2" data-testid="always-sent">
          {ALWAYS_SENT.map((kind) => (
            <li key={kind} className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span>{kind}</span>
              <span className="rounded-full border border-timber px-2 text-sm text-dust">
                {CHOICES_MESSAGES.alwaysMark}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
