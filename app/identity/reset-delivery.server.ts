import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The auth library makes a password-reset token and hands it to one callback
 * (auth.server.ts, `sendResetPassword`), which by default emails the member the usual
 * "reset your password" letter. A manager's invitation and a link made to hand over in
 * person use the same token path: the request runs inside this context, and the callback
 * gives the link to `deliver` instead (the invitation's own email, or back to the page).
 * The library awaits the callback, so `deliver` has run when its call returns.
 */
export type ResetDelivery = { deliver: (member: { email: string; firstName: string }, link: string) => Promise<void> };

export const resetDelivery = new AsyncLocalStorage<ResetDelivery>();
