import { data } from "react-router";
import { DISCORD_UNLINK_MESSAGES, type DiscordNotice } from "./discord-sign-in";
import { safeRedirectTarget } from "~/web/redirect-target";
import { authRefusal, CLIENT_ADDRESS_HEADER, getAuth, siteOrigin } from "~/identity/auth.server";
import { DISCORD_CALLBACK_PATH, DISCORD_PROVIDER_ID, discordSignInEnabled } from "~/identity/discord-oauth.server";
import { logger } from "~/platform/logger.server";
import { hit, type Limit } from "~/platform/rate-limit.server";
import { ACCOUNT_SUSPENDED_CODE } from "~/identity/suspension.server";

/**
 * Signing in with Discord, and linking and unlinking it from the profile, through the auth
 * library's API (its HTTP handler is not mounted). Both flows leave for Discord from one of our
 * pages and come back to one page of ours (DISCORD_CALLBACK_PATH), which hands the answer to
 * the library and turns its redirect into ours: a session cookie and the page to return to, or
 * a notice (`?discord=…`) on the sign-in page or on the profile's "Sign-in methods".
 */

/** Per client address: leaving for Discord (to sign in or to link), and coming back. */
export const DISCORD_LIMITS = {
  start: { max: 30, windowMs: 15 * 60_000 },
  callback: { max: 30, windowMs: 15 * 60_000 },
} satisfies Record<string, Limit>;

/** Where each flow shows its notices. */
const NOTICE_PAGES = { signin: "/auth", link: "/profile/sign-in-methods" } as const;
type Flow = keyof typeof NOTICE_PAGES;

/** A 404 wherever Discord is not configured: its pages are not there. */
export function requireDiscordSignIn(): void {
  if (!discordSignInEnabled()) throw data(null, { status: 404 });
}

/** A same-site page to return to after signing in; never our callback or the library's own addresses. */
function returnTarget(value: unknown): string {
  const target = safeRedirectTarget(value);
  return /^\/api(\/|\?|$)/.test(target) ? "/" : target;
}

/** The page showing `notice` for `flow`; the sign-in page keeps where to return afterwards. */
export function discordNoticeAddress(flow: Flow, notice: DiscordNotice, redirectTo?: unknown): string {
  const params = new URLSearchParams({ discord: notice });
  const target = flow === "signin" ? returnTarget(redirectTo) : "/";
  if (target !== "/") params.set("redirectTo", target);
  return `${NOTICE_PAGES[flow]}?${params}`;
}

/** Where the library sends a failure: our callback again, naming the flow, to be turned into a notice. */
function failureAddress(flow: Flow, target = "/"): string {
  const params = new URLSearchParams({ flow });
  if (target !== "/") params.set("redirectTo", target);
  return `${DISCORD_CALLBACK_PATH}?${params}`;
}

export type DiscordStart = { ok: true; url: string; setCookies: string[] } | { ok: false; notice: DiscordNotice };

async function startAllowed(clientAddress: string): Promise<boolean> {
  return (await hit(`discord:start:${clientAddress}`, DISCORD_LIMITS.start)).allowed;
}

/**
 * Starts signing in: Discord's address to send the browser to, and the cookie that ties
 * Discord's answer to this browser (the library keeps the rest of the flow's state).
 */
export async function startDiscordSignIn(
  request: Request,
  clientAddress: string,
  redirectTo: unknown,
): Promise<DiscordStart> {
  if (!(await startAllowed(clientAddress))) return { ok: false, notice: "too-many" };
  const target = returnTarget(redirectTo);
  const auth = await getAuth();
  const result = await auth.api.signInSocial({
    body: {
      provider: DISCORD_PROVIDER_ID,
      callbackURL: target,
      errorCallbackURL: failureAddress("signin", target),
      disableRedirect: true,
    },
    headers: new Headers({
      "user-agent": request.headers.get("user-agent") ?? "",
      [CLIENT_ADDRESS_HEADER]: clientAddress,
    }),
    returnHeaders: true,
  });
  if (!result.response.url) throw new Error("the auth library gave no Discord address");
  return { ok: true, url: result.response.url, setCookies: result.headers.getSetCookie() };
}

/** Starts linking Discord to the signed-in member's account (the session comes with `request`). */
export async function startDiscordLink(request: Request, clientAddress: string): Promise<DiscordStart> {
  if (!(await startAllowed(clientAddress))) return { ok: false, notice: "too-many" };
  const auth = await getAuth();
  const result = await auth.api.linkSocialAccount({
    body: {
      provider: DISCORD_PROVIDER_ID,
      callbackURL: `${NOTICE_PAGES.link}?discord=linked`,
      errorCallbackURL: failureAddress("link"),
      disableRedirect: true,
    },
    headers: request.headers,
    returnHeaders: true,
  });
  return { ok: true, url: result.response.url, setCookies: result.headers.getSetCookie() };
}

/** The query parameters of Discord's answer that the library reads; anything longer than this is no answer of Discord's. */
const CALLBACK_PARAMS = ["code", "state", "error", "iss"] as const;
const MAX_PARAM_LENGTH = 2_048;

/** The library's failure codes (its `?error=`) that mean the flow's state was missing, altered, replayed or too old. */
function isStateFailure(code: string): boolean {
  return code.startsWith("state_") || code === "invalid_callback_request" || code === "please_restart_the_process";
}

function noticeFor(flow: Flow, code: string): DiscordNotice {
  if (isStateFailure(code)) return "expired";
  if (code === "access_denied") return "cancelled";
  if (code === ACCOUNT_SUSPENDED_CODE) return "suspended";
  // Unknown to every account, or known by its email only: Discord signs in only once linked.
  if (flow === "signin" && (code === "signup_disabled" || code === "account_not_linked")) return "not-linked";
  if (flow === "link" && code === "account_already_linked_to_different_user") return "linked-elsewhere";
  return flow === "link" ? "link-failed" : "failed";
}

export type DiscordCallbackOutcome = { to: string; setCookies: string[] };

/**
 * Finishes a sign-in or a link with Discord's answer (`request`, carrying the flow's cookie).
 * The library checks the state, exchanges the code, reads the Discord user, and either signs
 * in the member whose account it is linked to, or links it to the signed-in member; it
 * answers with a redirect, to the flow's page or to its failure address.
 */
export async function completeDiscordCallback(
  request: Request,
  clientAddress: string,
  signedIn: boolean,
): Promise<DiscordCallbackOutcome> {
  const guessedFlow: Flow = signedIn ? "link" : "signin";
  const throttle = await hit(`discord:callback:${clientAddress}`, DISCORD_LIMITS.callback);
  if (!throttle.allowed) return { to: discordNoticeAddress(guessedFlow, "too-many"), setCookies: [] };

  const given = new URL(request.url).searchParams;
  const query: Partial<Record<(typeof CALLBACK_PARAMS)[number], string>> = {};
  for (const name of CALLBACK_PARAMS) {
    const value = given.get(name);
    if (value === null) continue;
    if (value.length > MAX_PARAM_LENGTH) return { to: discordNoticeAddress(guessedFlow, "expired"), setCookies: [] };
    query[name] = value;
  }

  const auth = await getAuth();
  const answer = await auth.api.callbackOAuth({
    params: { id: DISCORD_PROVIDER_ID },
    query,
    headers: request.headers,
    asResponse: true,
  });
  const setCookies = answer.headers.getSetCookie();
  const location = answer.headers.get("Location");
  if (answer.status < 300 || answer.status >= 400 || !location) {
    logger.error({ status: answer.status }, "the auth library answered a Discord callback without a redirect");
    return { to: discordNoticeAddress(guessedFlow, "failed"), setCookies };
  }

  const target = new URL(location, siteOrigin());
  // A failure comes back to our callback (the flow's failure address) or, when the flow's
  // state could not be read at all, to the library's own error address.
  const failed = target.pathname === DISCORD_CALLBACK_PATH || /^\/api(\/|$)/.test(target.pathname);
  if (!failed) return { to: safeRedirectTarget(target.pathname + target.search), setCookies };

  const named = target.searchParams.get("flow");
  const flow: Flow = named === "link" || named === "signin" ? named : guessedFlow;
  const code = (target.searchParams.get("error") ?? "").slice(0, 64);
  const notice = noticeFor(flow, code);
  // The code is the library's or Discord's word for what went wrong: never a token or a secret.
  logger.info({ flow, code: code.replace(/[^\w-]/g, "?"), notice }, "a Discord sign-in did not go through");
  return { to: discordNoticeAddress(flow, notice, target.searchParams.get("redirectTo")), setCookies };
}

export type SignInMethods = {
  password: boolean;
  /** The linked Discord account, with its names as Discord gives them now (null when Discord could not be asked). */
  discord: { username: string | null; displayName: string | null } | null;
};

/** The signed-in member's ways to sign in (their accounts in the library's sense). */
export async function listSignInMethods(request: Request): Promise<SignInMethods> {
  const auth = await getAuth();
  const accounts = await auth.api.listUserAccounts({ headers: request.headers });
  const password = accounts.some((account) => account.providerId === "credential");
  const linked = accounts.find((account) => account.providerId === DISCORD_PROVIDER_ID);
  if (!linked) return { password, discord: null };
  try {
    // Asked of Discord with the account's token, so a renamed account shows its new name.
    const info = await auth.api.accountInfo({ query: { accountId: linked.id }, headers: request.headers });
    const user = info.data as { username?: unknown; globalName?: unknown };
    return {
      password,
      discord: {
        username: typeof user.username === "string" ? user.username : null,
        displayName: typeof user.globalName === "string" ? user.globalName : null,
      },
    };
  } catch (error) {
    const refusal = await authRefusal(error);
    logger.warn({ err: refusal ? refusal.code : error }, "reading the linked Discord user failed");
    return { password, discord: { username: null, displayName: null } };
  }
}

export type UnlinkOutcome = { ok: true } | { ok: false; status: number; message: string };

/**
 * Unlinks the signed-in member's Discord account. The library refuses to remove a member's
 * last way to sign in, and wants a session signed in within the last day.
 */
export async function unlinkDiscord(request: Request): Promise<UnlinkOutcome> {
  const auth = await getAuth();
  const accounts = await auth.api.listUserAccounts({ headers: request.headers });
  const linked = accounts.find((account) => account.providerId === DISCORD_PROVIDER_ID);
  if (!linked) return { ok: false, status: 404, message: DISCORD_UNLINK_MESSAGES.notLinked };
  try {
    await auth.api.unlinkAccount({ body: { accountId: linked.id }, headers: request.headers });
    return { ok: true };
  } catch (error) {
    const refusal = await authRefusal(error);
    if (refusal?.code === "FAILED_TO_UNLINK_LAST_ACCOUNT")
      return { ok: false, status: 409, message: DISCORD_UNLINK_MESSAGES.onlyWay };
    if (refusal?.code === "SESSION_NOT_FRESH")
      return { ok: false, status: 403, message: DISCORD_UNLINK_MESSAGES.signInAgain };
    if (refusal?.code === "ACCOUNT_NOT_FOUND")
      return { ok: false, status: 404, message: DISCORD_UNLINK_MESSAGES.notLinked };
    throw error;
  }
}
