// What a member changes on their profile page (routes/profile/profile.tsx), one function per form,
// with the page's answer for each outcome.
import { data } from "react-router";
import type { SessionUser } from "~/lib/navigation";
import { failSafely, type ActionAnswer } from "~/web/actions.server";
import type { FieldErrors, FormValues } from "~/web/forms/kernel";
import { updateBackstory } from "./characters.server";
import { saveEmergencyContact } from "./profiles.server";

/** What the profile page shows after a save, by the form (`intent`) it answers. */
export type ProfileAnswer = {
  intent: string;
  saved?: boolean;
  message?: string;
  errors?: FieldErrors;
  values?: FormValues;
  at?: number;
};

type Answer = Promise<ActionAnswer<ProfileAnswer>>;

export async function saveContact(
  user: SessionUser,
  input: { name: string; phone: string },
  values: FormValues,
): Answer {
  const intent = "contact";
  return failSafely<ProfileAnswer>(
    "saving an emergency contact",
    { intent, message: "Failed to save emergency contact. Please try again.", values },
    async () => {
      await saveEmergencyContact(user.id, { name: input.name, phone: input.phone });
      return data({ intent, saved: true, at: Date.now() });
    },
  );
}

export async function saveBackstory(user: SessionUser, input: { backstory: string }, values: FormValues): Answer {
  const intent = "backstory";
  return failSafely<ProfileAnswer>(
    "saving a backstory",
    { intent, message: "Failed to save backstory. Please try again.", values },
    async () => {
      if (!(await updateBackstory(user, input.backstory)))
        return data({ intent, message: "You have no character yet. Create one first." }, { status: 404 });
      return data({ intent, saved: true, at: Date.now() });
    },
  );
}
