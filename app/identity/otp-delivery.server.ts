import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The auth library's two-factor plugin makes a one-time code and hands it to one callback
 * (two-factor-plugin.server.ts, `sendOTP`). Its codes are only ever texted: an emailed code is
 * no second factor (the mailbox is what a password reset and an emailed sign-in code already
 * prove; docs/decisions/0017-a-second-factor-is-a-second-factor.md). The request runs inside
 * this context, naming the channel, and the callback records here what it did (the library
 * logs and swallows a failure of its callback, so the outcome is only known this way). The
 * library awaits the callback; a code asked for outside this context is sent nowhere.
 *
 * - `sms` with `to`: the code confirms a number being added (sent there, not to a confirmed one);
 * - `sms` without `to`: the member's confirmed number, or `no-phone` when they have none.
 */
export type OtpDelivery = {
  channel: "sms";
  to?: string;
  outcome?: "queued" | "no-phone";
};

export const otpDelivery = new AsyncLocalStorage<OtpDelivery>();
