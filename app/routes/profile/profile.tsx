import { useState } from "react";
import { data, Form, useNavigation, useRouteLoaderData, useSearchParams } from "react-router";
import { Link } from "~/components/Link";
import { ProfileLayout, profileSections, type ProfileSection } from "~/features/members/ProfileLayout";
import type { Route } from "./+types/profile";
import { ApplicationAnswers, StatusBadge } from "~/features/members/ApplicationAnswers";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { SavedNotice } from "~/components/SavedNotice";
import { Alert } from "~/components/ui/Alert";
import { Field } from "~/components/ui/Field";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { type FieldErrors, parseForm } from "~/web/forms/kernel";
import { BACKSTORY_MAX } from "~/features/members/character.limits";
import { ProfileForms } from "~/features/members/profile.form";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { canBuildCharacter, ROLE_LABELS } from "~/game/roles";
import { countOf } from "~/lib/plural";
import type { loader as rootLoader } from "~/root";
import { TEXTAREA_ROWS } from "~/game/rules";
import { updateBackstory } from "~/features/members/characters.server";
import { failSafely } from "~/web/actions.server";
import { requireAccess } from "~/web/guards.server";
import { profileOverview, saveEmergencyContact } from "~/features/members/profiles.server";
import { answersForMember } from "~/features/review/staff-replies.server";
import { AnswersFromStaff } from "~/features/review/AnswersFromStaff";

const SAVED = "Changes saved successfully!";
type Tab = ProfileSection;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const canHaveCharacter = canBuildCharacter(user.role);
  const [{ contact, application, character, survived, survivedOnOldSite }, answers] = await Promise.all([
    profileOverview(user.id),
    answersForMember(user.id),
  ]);
  return {
    answers,
    user,
    canHaveCharacter,
    contact,
    application,
    character: canHaveCharacter ? character : null,
    survived: canHaveCharacter ? survived : 0,
    survivedOnOldSite: canHaveCharacter ? survivedOnOldSite : 0,
  };
}

type ActionData = {
  intent: string;
  saved?: boolean;
  message?: string;
  errors?: FieldErrors;
  values?: Record<string, string | undefined>;
  at?: number;
};

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const form = await parseForm(request, ProfileForms);
  const intent = form.values.intent;
  if (intent !== "contact" && intent !== "backstory")
    return data<ActionData>({ intent: "unknown", message: "That action is not available here." }, { status: 400 });
  if (intent === "backstory") requireAccess(context, request, "character");
  if (!form.ok) return data<ActionData>({ intent, errors: form.errors, values: form.values }, { status: 400 });
  const saved = form.data;
  if (saved.intent === "contact") {
    return failSafely<ActionData>(
      "saving an emergency contact",
      { intent, message: "Failed to save emergency contact. Please try again.", values: form.values },
      async () => {
        await saveEmergencyContact(user.id, { name: saved.name, phone: saved.phone });
        return data({ intent, saved: true, at: Date.now() });
      },
    );
  }
  return failSafely<ActionData>(
    "saving a backstory",
    { intent, message: "Failed to save backstory. Please try again.", values: form.values },
    async () => {
      if (!(await updateBackstory(user, saved.backstory)))
        return data({ intent, message: "You have no character yet. Create one first." }, { status: 404 });
      return data({ intent, saved: true, at: Date.now() });
    },
  );
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="font-bold text-dust">{term}</dt>
      <dd className="break-words">{children}</dd>
    </>
  );
}

function Submit({ label }: { label: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <button type="submit" className="btn btn-primary" disabled={busy}>
      {busy ? "Saving…" : label}
    </button>
  );
}

/**
 * Whether an in-place editor is open: opened by Edit, closed by Cancel or by a
 * successful save that happened after it was opened. A refused save keeps it open.
 */
function useEditor(result: ActionData | undefined, openAtFirst: boolean) {
  const [openedAfter, setOpenedAfter] = useState<{ at: number | undefined } | null>(
    openAtFirst ? { at: undefined } : null,
  );
  const savedSinceOpening = Boolean(result?.saved && openedAfter && result.at !== openedAfter.at);
  return {
    open: openedAfter !== null && !savedSinceOpening,
    start: () => setOpenedAfter({ at: result?.at }),
    cancel: () => setOpenedAfter(null),
  };
}

function EmergencyContactSection({
  contact,
  actionData,
}: {
  contact: { name: string; phone: string } | null;
  actionData?: ActionData;
}) {
  const [params] = useSearchParams();
  const mine = actionData?.intent === "contact" ? actionData : undefined;
  const editor = useEditor(mine, params.get("edit") === "contact" || Boolean(mine && !mine.saved));
  const editing = editor.open;
  const values = mine?.values ?? contact ?? { name: "", phone: "" };
  return (
    <section aria-labelledby="emergency" className="panel">
      <h2 id="emergency" className="text-2xl">
        Emergency contact
      </h2>
      <p className="mt-1 text-sm text-dust">
        Who we call if something happens to you at an event. Only managers can see it.
      </p>
      <div className="mt-4 flex flex-col gap-4">
        {mine?.saved && !editing ? <SavedNotice key={mine.at} message={SAVED} /> : null}
        {mine?.message ? <Alert kind="error">{mine.message}</Alert> : null}
        {editing ? (
          <Form method="post" noValidate className="flex flex-col gap-4">
            <input type="hidden" name="intent" value="contact" />
            <Field
              label="Contact name"
              name="name"
              autoComplete="off"
              required
              defaultValue={values.name}
              error={mine?.errors?.name}
            />
            <Field
              label="Contact phone"
              name="phone"
              type="tel"
              autoComplete="off"
              required
              defaultValue={values.phone}
              error={mine?.errors?.phone}
            />
            <div className="flex gap-3">
              <Submit label="Save" />
              <Link to="?tab=profile" onClick={editor.cancel} className="btn btn-secondary" replace>
                Cancel
              </Link>
            </div>
          </Form>
        ) : contact ? (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2">
              <Detail term="Name">{contact.name}</Detail>
              <Detail term="Phone">{contact.phone}</Detail>
            </dl>
            <Link
              to="?tab=profile&edit=contact"
              onClick={(e) => (e.preventDefault(), editor.start())}
              className="btn btn-secondary self-start"
            >
              Edit
            </Link>
          </>
        ) : (
          <>
            <p>No emergency contact yet.</p>
            <Link
              to="?tab=profile&edit=contact"
              onClick={(e) => (e.preventDefault(), editor.start())}
              className="btn btn-primary self-start"
            >
              Add emergency contact
            </Link>
          </>
        )}
      </div>
    </section>
  );
}

function BackstorySection({ backstory, actionData }: { backstory: string; actionData?: ActionData }) {
  const [params] = useSearchParams();
  const mine = actionData?.intent === "backstory" ? actionData : undefined;
  const editor = useEditor(mine, params.get("edit") === "backstory" || Boolean(mine && !mine.saved));
  const editing = editor.open;
  return (
    <div className="flex flex-col gap-3">
      {mine?.saved && !editing ? <SavedNotice key={mine.at} message={SAVED} /> : null}
      {mine?.message ? <Alert kind="error">{mine.message}</Alert> : null}
      {editing ? (
        <Form method="post" noValidate className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="backstory" />
          <TextAreaField
            label="Backstory"
            name="backstory"
            rows={TEXTAREA_ROWS.backstory}
            maxLength={BACKSTORY_MAX}
            required
            defaultValue={mine?.values?.backstory ?? backstory}
            error={mine?.errors?.backstory}
          />
          <div className="flex gap-3">
            <Submit label="Save" />
            <Link to="?tab=character" onClick={editor.cancel} className="btn btn-secondary" replace>
              Cancel
            </Link>
          </div>
        </Form>
      ) : (
        <>
          <h3 className="text-xl">Backstory</h3>
          <p className="whitespace-pre-wrap">{backstory}</p>
          <Link
            to="?tab=character&edit=backstory"
            onClick={(e) => (e.preventDefault(), editor.start())}
            className="btn btn-secondary self-start"
          >
            Edit backstory
          </Link>
        </>
      )}
    </div>
  );
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

export const meta: Route.MetaFunction = () => [{ title: "Profile · Hopewell" }];

/** A failed read shows the page's own message (logged once by handleError). */
export const ErrorBoundary = pageErrorBoundary("Profile", SUBMISSION_MESSAGES.loadFailed);
