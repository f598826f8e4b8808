import { describe, expect, it } from "vitest";
import { browserErrorMessage, PASSKEY_MESSAGES } from "~/features/passkeys/passkey-messages";
import { assuranceLevelOf } from "~/identity/auth.server";

describe("passkey messages and labels", () => {
  it("tells a cancelled browser dialog from an authenticator that already holds the passkey, and from any other failure", () => {
    // As @simplewebauthn/browser passes the browser's errors on: the DOMException's name, and its own code.
    expect(
      browserErrorMessage(
        Object.assign(new Error("The operation either timed out or was not allowed."), {
          name: "NotAllowedError",
          code: "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY",
        }),
      ),
    ).toBe(PASSKEY_MESSAGES.cancelled);
    expect(
      browserErrorMessage(Object.assign(new Error("aborted"), { name: "AbortError", code: "ERROR_CEREMONY_ABORTED" })),
    ).toBe(PASSKEY_MESSAGES.cancelled);
    expect(
      browserErrorMessage(
        Object.assign(new Error("registered"), {
          name: "InvalidStateError",
          code: "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED",
        }),
      ),
    ).toBe(PASSKEY_MESSAGES.alreadyRegistered);
    expect(
      browserErrorMessage(Object.assign(new Error("bad rp"), { name: "SecurityError", code: "ERROR_INVALID_RP_ID" })),
    ).toBe(PASSKEY_MESSAGES.deviceFailed);
    expect(browserErrorMessage(undefined)).toBe(PASSKEY_MESSAGES.deviceFailed);
  });

  it("makes a session proven by a passkey aal2, and one proven by a password aal1", () => {
    expect(assuranceLevelOf("/passkey/verify-authentication")).toBe("aal2");
    expect(assuranceLevelOf("/sign-in/email")).toBe("aal1");
    expect(assuranceLevelOf(undefined)).toBe("aal1");
  });
});
