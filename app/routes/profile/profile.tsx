import { data, useRouteLoaderData, useSearchParams } from "react-router";
import { Link } from "~/components/Link";
import { ProfileLayout, profileSections, type ProfileSection } from "~/features/members/ProfileLayout";
import type { Route } from "./+types/profile";
import { ApplicationAnswers, StatusBadge } from "~/features/members/ApplicationAnswers";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { checkForm, readForm } from "~/web/forms/kernel";
import { ProfileForms } from "~/features/members/profile.form";
import { BackstorySection, Detail, EmergencyContactSection } from "~/features/members/ProfileEditors";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { canBuildCharacter, ROLE_LABELS } from "~/game/roles";
import { countOf } from "~/lib/plural";
import type { loader as rootLoader } from "~/root";
import { requireAccess } from "~/web/guards.server";
import { saveBackstory, saveContact, type ProfileAnswer } from "~/features/members/profile-changes.server";
import { profileOverview } from "~/features/members/profiles.server";
import { answersForMember } from "~/features/review/staff-replies.server";
import { AnswersFromStaff } from "~/features/review/AnswersFromStaff";
import { MessageChoicesSection } from "~/features/messages/MessageChoices";
import { messageChoices, saveMessageChoices } from "~/features/messages/choices.server";

type Tab = ProfileSection;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const canHaveCharacter = canBuildCharacter(user.role);
  const [{ contact, application, character, survived, survivedOnOldSite }, answers, choices] = await Promise.all([
    profileOverview(user.id),
    answersForMember(user.id),
    messageChoices(user.id),
  ]);
  return {
    answers,
    choices,
    user,
    canHaveCharacter,
    contact,
    application,
    character: canHaveCharacter ? character : null,
    survived: canHaveCharacter ? survived : 0,
    survivedOnOldSite: canHaveCharacter ? survivedOnOldSite : 0,
  };
}

/**
 * Saves the emergency contact or the backstory (profile-changes.server.ts), or the choices of the
 * club's messages (features/messages/choices.server.ts), by the button that sent the form.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const values = await readForm(request);
  if (values.intent === "choices") return saveMessageChoices(user, values);
  const form = checkForm(ProfileForms, values);
  const intent = form.values.intent;
  if (intent !== "contact" && intent !== "backstory")
    return data<ProfileAnswer>({ intent: "unknown", message: "That action is not available here." }, { status: 400 });
  if (intent === "backstory") requireAccess(context, request, "character");
  if (!form.ok) return data<ProfileAnswer>({ intent, errors: form.errors, values: form.values }, { status: 400 });
  return form.data.intent === "contact"
    ? saveContact(user, form.data, form.values)
    : saveBackstory(user, form.data, form.values);
}

/** The member's letter box in brief: the unread count the navigation shows too (read once, by the root). */
function LettersSection() {
  const unread = useRouteLoaderData<typeof rootLoader>("root")?.unreadLetters ?? 0;
  return (
    <section aria-labelledby="letters" className="panel">
      <h2 id="letters" className="text-2xl">
        Letters
      </h2>
      <p className="mt-2" data-testid="profile-unread-letters">
        {unread > 0 ? `You have ${countOf(unread, "unread letter")}.` : "You have no unread letters."}
      </p>
      <Link to="/letters?tab=box" className="btn btn-secondary mt-4 self-start">
        Open your letter box
      </Link>
    </section>
  );
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const tabs = profileSections(loaderData.canHaveCharacter);
  const requested = params.get("tab") as Exclude<Tab, "devices" | "password"> | null;
  const tab: Tab = tabs.some((t) => t.id === requested && !t.to)
    ? requested!
    : actionData?.intent === "backstory"
      ? "character"
      : "profile";
  const { user } = loaderData;

  return (
    <ProfileLayout canHaveCharacter={loaderData.canHaveCharacter} active={tab}>
      <div className="flex flex-col gap-6">
        {tab === "profile" ? (
          <>
            <section aria-labelledby="details" className="panel">
              <h2 id="details" className="text-2xl">
                My Profile
              </h2>
              <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2">
                <Detail term="Name">
                  {user.firstName} {user.lastName}
                </Detail>
                <Detail term="Email">{user.email}</Detail>
                <Detail term="Role">
                  <span data-testid="role">{ROLE_LABELS[user.role]}</span>
                </Detail>
              </dl>
            </section>
            <LettersSection />
            <AnswersFromStaff answers={loaderData.answers} />
            <EmergencyContactSection contact={loaderData.contact} actionData={actionData} />
            <MessageChoicesSection
              choices={loaderData.choices}
              answer={actionData?.intent === "choices" ? actionData : undefined}
            />
            {!loaderData.canHaveCharacter ? (
              <section aria-labelledby="no-character" className="panel">
                <h2 id="no-character" className="text-2xl">
                  Character Creation Unavailable
                </h2>
                <p className="mt-2 text-dust">
                  Character creation becomes available once your application has been accepted.
                </p>
              </section>
            ) : null}
          </>
        ) : tab === "character" ? (
          <section aria-labelledby="character" className="panel flex flex-col gap-4">
            <h2 id="character" className="text-2xl">
              My Character
            </h2>
            {loaderData.character ? (
              <>
                <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2">
                  <Detail term="Name">{loaderData.character.characterName}</Detail>
                  <Detail term="Faction">{loaderData.character.faction}</Detail>
                  <Detail term="Job">{loaderData.character.job}</Detail>
                  <Detail term="Events Survived">
                    <span data-testid="events-survived">{loaderData.survived}</span>
                    {loaderData.survivedOnOldSite > 0 ? (
                      <span className="ml-2 text-sm text-dust">
                        (including the {countOf(loaderData.survivedOnOldSite, "event")} counted on the club&apos;s old
                        site)
                      </span>
                    ) : null}
                  </Detail>
                </dl>
                <BackstorySection backstory={loaderData.character.backstory} actionData={actionData} />
                <Link to="/character">Change name, faction or job</Link>
              </>
            ) : (
              <>
                <p>You have not made your character yet.</p>
                <Link to="/character" className="btn btn-primary self-start">
                  Create your character
                </Link>
              </>
            )}
          </section>
        ) : (
          <section aria-labelledby="application" className="panel">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="application" className="text-2xl">
                My Application
              </h2>
              {loaderData.application ? <StatusBadge status={loaderData.application.status} /> : null}
            </div>
            <div className="mt-4">
              {loaderData.application ? (
                <ApplicationAnswers application={loaderData.application} />
              ) : (
                <p>
                  You have not applied yet. <Link to="/application">Fill out the application</Link>.
                </p>
              )}
            </div>
          </section>
        )}
      </div>
    </ProfileLayout>
  );
}

/** Each tab's own title, so the browser's tabs and history tell them apart. */
const TAB_TITLES: Record<string, string> = {
  profile: "My Profile",
  character: "My Character",
  application: "My Application",
};

export const meta: Route.MetaFunction = ({ location, loaderData }) => {
  const tab = new URLSearchParams(location.search).get("tab") ?? "profile";
  const shown = tab === "character" && !loaderData?.canHaveCharacter ? "profile" : tab;
  return [{ title: `${TAB_TITLES[shown] ?? TAB_TITLES.profile} · Profile · Hopewell` }];
};

export const ErrorBoundary = pageErrorBoundary("Profile", SUBMISSION_MESSAGES.loadFailed);
