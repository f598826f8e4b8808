import type { Route } from "./+types/passkeys-options";
import { PASSKEY_MESSAGES } from "~/features/passkeys/passkey-messages";
import { requestInfoContext } from "~/web/request-context";
import { requireAccess } from "~/web/guards.server";
import { methodNotAllowed, passkeyRoute, registrationOptions } from "~/features/passkeys/passkeys.server";

/** The options (and challenge) for adding a passkey to the signed-in member's account. */
export function loader() {
  return methodNotAllowed();
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAccess(context, request, "member");
  const { clientAddress } = context.get(requestInfoContext);
  return passkeyRoute(request, "passkey registration options", PASSKEY_MESSAGES.registrationFailed, () =>
    registrationOptions(request, clientAddress),
  );
}
