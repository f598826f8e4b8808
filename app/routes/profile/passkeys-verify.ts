import type { Route } from "./+types/passkeys-verify";
import { PASSKEY_MESSAGES } from "~/features/passkeys/passkey-messages";
import { requireAccess } from "~/web/guards.server";
import { methodNotAllowed, passkeyRoute, verifyRegistration } from "~/features/passkeys/passkeys.server";

/** Saves the browser's new passkey, once the library has checked it against the challenge. */
export function loader() {
  return methodNotAllowed();
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  return passkeyRoute(request, "adding a passkey", PASSKEY_MESSAGES.registrationFailed, () =>
    verifyRegistration(request, user.id),
  );
}
