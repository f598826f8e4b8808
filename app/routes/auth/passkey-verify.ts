import type { Route } from "./+types/passkey-verify";
import { PASSKEY_MESSAGES } from "~/features/passkeys/passkey-messages";
import { requestInfoContext } from "~/web/request-context";
import { methodNotAllowed, passkeyRoute, signInWithPasskey } from "~/features/passkeys/passkeys.server";

/** Signs in with the browser's passkey answer: sets the session cookie and names the page to go to. */
export function loader() {
  return methodNotAllowed();
}

export async function action({ request, context }: Route.ActionArgs) {
  const { clientAddress } = context.get(requestInfoContext);
  return passkeyRoute(request, "passkey sign-in", PASSKEY_MESSAGES.signInFailed, () =>
    signInWithPasskey(request, clientAddress),
  );
}
