/**
 * The limits that keep guessing and mass sign-ups out (docs/product.md#timings-and-limits): the
 * defaults of SIGNUP_THROTTLE_MS, SIGN_IN_ADDRESS_LIMIT and SIGN_IN_ACCOUNT_LIMIT, which an
 * operator may change (config.server.ts), and the window the sign-in limits count in.
 */

/** Least time between two sign-ups from one client address. */
export const SIGNUP_THROTTLE_MS = 11_000;
/** The window both sign-in limits count attempts in. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Sign-in attempts (any way in) one client address may make in the window. */
export const SIGN_IN_ATTEMPTS_PER_ADDRESS = 30;
/** Wrong sign-in attempts (password checks and codes) one account may receive in the window. */
export const SIGN_IN_ATTEMPTS_PER_ACCOUNT = 10;
