/*
 * Kept apart from the passkey forms' schemas so the sign-in page's first script can show these
 * without Zod.
 */

/** What members are told about passkeys, on the profile's Passkeys page and on /auth. One source for pages, server and tests. */
export const PASSKEY_MESSAGES = {
  needsJavaScript:
    "Passkeys need JavaScript, which is turned off or still loading in this browser. You can still rename or remove your passkeys here.",
  signInNeedsJavaScript:
    "Signing in with a passkey needs JavaScript, which is turned off or still loading in this browser. Sign in with your email and password instead.",
  unsupported: "This browser cannot use passkeys. Sign in with your email and password instead.",
  cancelled: "The passkey request was cancelled, or no passkey was chosen. Nothing was changed.",
  notRegistered:
    "That passkey is not registered here. Sign in with your email and password, then add a passkey from your profile.",
  challengeExpired: "This passkey request has expired or was already used. Please try again.",
  notVerified:
    "That passkey could not be verified: the answer was used before or does not match this request. Please try again.",
  alreadyRegistered: "This passkey is already registered to your account.",
  deviceFailed: "Your device could not complete the passkey request. Please try again.",
  registrationFailed: "The passkey could not be added. Please try again.",
  signInFailed: "Signing in with a passkey failed. Please try again.",
  tooManyRequests: "Too many passkey requests from this connection. Please wait a few minutes and try again.",
  notFresh:
    "For your safety, a passkey can be added only within a day of signing in. Sign out and sign in again, then add it.",
  unreadable: "This passkey request could not be read. Please reload the page and try again.",
  added: "Passkey added. You can now use it to sign in.",
  renamed: "Passkey renamed.",
  removed: "Passkey removed. It can no longer be used to sign in here.",
  gone: "That passkey is no longer registered to your account.",
  failed: "That could not be saved. Please try again.",
} as const;

/**
 * The message for an error thrown by the browser's WebAuthn call (as @simplewebauthn/browser
 * passes it on): the member closing the dialog or letting it time out is NotAllowedError (or
 * AbortError), an authenticator that already holds a passkey of this account is InvalidStateError.
 */
export function browserErrorMessage(error: unknown): string {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  if (name === "NotAllowedError" || name === "AbortError" || code === "ERROR_CEREMONY_ABORTED")
    return PASSKEY_MESSAGES.cancelled;
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" || name === "InvalidStateError")
    return PASSKEY_MESSAGES.alreadyRegistered;
  return PASSKEY_MESSAGES.deviceFailed;
}
