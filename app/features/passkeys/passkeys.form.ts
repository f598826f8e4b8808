import { z } from "zod";
import { textField } from "~/web/forms/kernel";

export const PASSKEY_NAME_MAX = 60;

/** A passkey's name, as typed when adding it or renaming it. */
export const passkeyName = textField(PASSKEY_NAME_MAX, {
  required: "Please give this passkey a name",
  tooLong: `Please keep the name to ${PASSKEY_NAME_MAX} characters or fewer`,
});

/** A passkey's id as the auth library makes them; anything else names no passkey. */
export const PASSKEY_ID = /^[\w-]{1,100}$/;

export const RenamePasskeyForm = z.object({ id: z.string().regex(PASSKEY_ID), name: passkeyName });
