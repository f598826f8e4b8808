import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The auth library's two-factor plugin makes a one-time code and hands it to one callback
 * (two-factor-plugin.server.ts, `sendOTP`), which by default emails it. A member may instead
 * have it texted to their phone: the request runs inside this context, naming the channel,
 * and the callback records here what it did (the library logs and swallows a failure of its
 * callback, so the outcome is only known this way). The library awaits the callback.
 *
 * - `sms` with `to`: the code confirms a number being added (sent there, not to a confirmed one);
 * - `sms` without `to`: the member's confirmed number, or `no-phone` when they have none.
 */
export type OtpDelivery = {
  channel: "email" | "sms";
  to?: string;
  outcome?: "queued" | "no-phone";
};

export const otpDelivery = new AsyncLocalStorage<OtpDelivery>();
