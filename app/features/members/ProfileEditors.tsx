import { useState } from "react";
import { Form, useNavigation, useSearchParams } from "react-router";
import { Link } from "~/components/Link";
import { SavedNotice } from "~/components/SavedNotice";
import { Alert } from "~/components/ui/Alert";
import { Field } from "~/components/ui/Field";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { TEXTAREA_ROWS } from "~/game/rules";
import { BACKSTORY_MAX } from "./character.limits";
import type { ProfileAnswer } from "./profile-changes.server";

/**
 * What a member edits in place on their profile page (routes/profile/profile.tsx): their emergency
 * contact and their character's backstory, each behind an Edit button.
 */

const SAVED = "Changes saved successfully!";

/** One term and its value in a profile's list of details. */
export function Detail({ term, children }: { term: string; children: React.ReactNode }) {
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
function useEditor(result: ProfileAnswer | undefined, openAtFirst: boolean) {
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

export function EmergencyContactSection({
  contact,
  actionData,
}: {
  contact: { name: string; phone: string } | null;
  actionData?: ProfileAnswer;
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

export function BackstorySection({ backstory, actionData }: { backstory: string; actionData?: ProfileAnswer }) {
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
