import { data } from "react-router";
import type { Route } from "./+types/captcha-challenge";
import { requestInfoContext } from "~/web/request-context";
import { newChallenge } from "~/platform/captcha.server";
import { hit, LIMITS } from "~/platform/rate-limit.server";

/** A fresh ALTCHA challenge for the widget; limited per address so it cannot be farmed. */
export async function loader({ context }: Route.LoaderArgs) {
  const { clientAddress } = context.get(requestInfoContext);
  const limit = await hit(`captcha:${clientAddress}`, LIMITS.captchaChallengePerAddress);
  if (!limit.allowed) {
    throw data("Too many requests", {
      status: 429,
      headers: { "Retry-After": String(Math.ceil(limit.retryAfterMs / 1000)) },
    });
  }
  return Response.json(await newChallenge(), { headers: { "Cache-Control": "no-store" } });
}
