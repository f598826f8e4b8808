import type { Route } from "./+types/profile-passkeys-options";
import { PASSKEY_MESSAGES } from "~/forms/passkeys";
import { requestInfoContext } from "~/lib/request-context";
import { requireAccess } from "~/server/guards.server";
import { methodNotAllowed, passkeyRoute, registrationOptions } from "~/server/passkeys.server";

/** The options (and challenge) for adding a passkey to the signed-in member's account. */
export function loader() {
  return methodNotAllowed();
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAccess(context, request, "member");
  const { clientAddress } = context.get(requestInfoContext);
  return passkeyRoute(request, "passkey registration options", PASSKEY_MESSAGES.registrationFailed, () => registrationOptions(request, clientAddress));
}
