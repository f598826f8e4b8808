import type { Route } from "./+types/passkey-options";
import { PASSKEY_MESSAGES } from "~/features/passkeys/passkey-messages";
import { requestInfoContext } from "~/web/request-context";
import { methodNotAllowed, passkeyRoute, signInOptions } from "~/features/passkeys/passkeys.server";

/** The options (and challenge) for signing in with a passkey on /auth; limited per client address. */
export function loader() {
  return methodNotAllowed();
}

export async function action({ request, context }: Route.ActionArgs) {
  const { clientAddress } = context.get(requestInfoContext);
  return passkeyRoute(request, "passkey sign-in options", PASSKEY_MESSAGES.signInFailed, () =>
    signInOptions(request, clientAddress),
  );
}
