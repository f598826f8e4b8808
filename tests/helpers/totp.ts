import * as OTPAuth from "otpauth";

/**
 * Authenticator codes for tests (Vitest and the browser tests alike: nothing of the app is
 * loaded here), computed by an independent TOTP implementation from the otpauth:// address an
 * enrolment showed, as a member's authenticator app would.
 */
export function totpNow(uri: string): string {
  return OTPAuth.URI.parse(uri).generate();
}

/** A code that is wrong now (the app's code plus one, six digits). */
export function wrongTotp(uri: string): string {
  return String((Number(totpNow(uri)) + 1) % 1_000_000).padStart(6, "0");
}
