import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { browserErrorMessage, PASSKEY_MESSAGES } from "./passkey-messages";

/**
 * The browser's side of passkeys: asks our resource routes for the options, runs the
 * browser's WebAuthn call through @simplewebauthn/browser (loaded only when a member uses a
 * passkey) and sends its answer back. Every failure comes back as the message to show.
 */

export type PasskeyOutcome<T = object> = ({ ok: true } & T) | { ok: false; message: string };

type Json = Record<string, unknown>;

/** POSTs JSON to one of our passkey routes; a refusal carries the server's message. */
async function post(
  path: string,
  body: Json | undefined,
  fallback: string,
): Promise<{ ok: true; json: Json } | { ok: false; message: string }> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body ?? {}),
    });
  } catch {
    return { ok: false, message: fallback };
  }
  const json = (await response.json().catch(() => ({}))) as Json;
  if (!response.ok) return { ok: false, message: typeof json.message === "string" ? json.message : fallback };
  return { ok: true, json };
}

async function webAuthn() {
  const browser = await import("@simplewebauthn/browser");
  return browser.browserSupportsWebAuthn() ? browser : null;
}

/** Makes a passkey for the signed-in member on this device and saves it under `name`. */
export async function addPasskey(name: string): Promise<PasskeyOutcome<{ message: string }>> {
  const browser = await webAuthn();
  if (!browser) return { ok: false, message: PASSKEY_MESSAGES.unsupported };
  const options = await post("/profile/passkeys/options", undefined, PASSKEY_MESSAGES.registrationFailed);
  if (!options.ok) return options;
  let response: unknown;
  try {
    response = await browser.startRegistration({
      optionsJSON: options.json.options as PublicKeyCredentialCreationOptionsJSON,
    });
  } catch (error) {
    return { ok: false, message: browserErrorMessage(error) };
  }
  const saved = await post(
    "/profile/passkeys/verify",
    { response: response as Json, name },
    PASSKEY_MESSAGES.registrationFailed,
  );
  if (!saved.ok) return saved;
  return { ok: true, message: typeof saved.json.message === "string" ? saved.json.message : PASSKEY_MESSAGES.added };
}

/** Signs in with a passkey this device holds for the site; on success, the page to go to. */
export async function signInWithPasskey(redirectTo: string): Promise<PasskeyOutcome<{ redirectTo: string }>> {
  const browser = await webAuthn();
  if (!browser) return { ok: false, message: PASSKEY_MESSAGES.unsupported };
  const options = await post("/auth/passkey/options", undefined, PASSKEY_MESSAGES.signInFailed);
  if (!options.ok) return options;
  let response: unknown;
  try {
    response = await browser.startAuthentication({
      optionsJSON: options.json.options as PublicKeyCredentialRequestOptionsJSON,
    });
  } catch (error) {
    return { ok: false, message: browserErrorMessage(error) };
  }
  const signedIn = await post(
    "/auth/passkey/verify",
    { response: response as Json, redirectTo },
    PASSKEY_MESSAGES.signInFailed,
  );
  if (!signedIn.ok) return signedIn;
  return { ok: true, redirectTo: typeof signedIn.json.redirectTo === "string" ? signedIn.json.redirectTo : "/" };
}
