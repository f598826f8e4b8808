/**
 * How long the links the auth library makes for a password work. Both are its reset-token
 * lifetimes (auth.server.ts); the managers' pages say them too, so they live apart from the
 * server-only modules.
 */

/** How long a password link works (a reset email's, or a manager's hand-over link): the main instance's reset-token lifetime. */
export const PASSWORD_LINK_HOURS = 1;

/** How long an invitation's link works: the reset-token lifetime of the instance that makes them. */
export const INVITATION_LINK_DAYS = 7;
