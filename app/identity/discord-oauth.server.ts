import type { BetterAuthPlugin } from "better-auth";
import { z } from "zod";
import { config, type Config } from "~/platform/config.server";
import { logger } from "~/platform/logger.server";

/**
 * Discord as the auth library sees it: an OAuth 2 provider registered through its generic
 * OAuth plugin, whose three endpoints come from the configuration (Discord's own by default,
 * a local OAuth server in the tests), so both take the same path. The flows built on it
 * (sign-in, link, unlink) are in features/discord/discord-sign-in.server.ts. Not to be confused with
 * app/platform/discord/, the webhook that posts staff notices.
 */

/** Our page that finishes both sign-in and linking: the one address registered with Discord. */
export const DISCORD_CALLBACK_PATH = "/auth/discord/callback";

/** The provider's name in the library, and in the accounts table's provider_id column. */
export const DISCORD_PROVIDER_ID = "discord";

/** How long Discord has to answer a profile request before the sign-in (or page) gives up on it. */
const DISCORD_TIMEOUT_MS = 8_000;

export function discordSignInEnabled(cfg: Config = config()): boolean {
  return cfg.discordSignIn !== undefined;
}

/** The origin the sign-in and link forms redirect to, which the pages' CSP must allow as a form target. */
export function discordFormOrigins(cfg: Config = config()): string[] {
  return cfg.discordSignIn ? [new URL(cfg.discordSignIn.authorizationUrl).origin] : [];
}

/**
 * How the library may link identities, for Discord (the only provider): a member links it
 * from the profile while signed in, never by a matching email at sign-in, and Discord's email
 * need not be the member's (they proved both by signing in to each).
 */
export const DISCORD_ACCOUNT_LINKING = {
  disableImplicitLinking: true,
  allowDifferentEmails: true,
  // Linking is the signed-in member's own act, whether or not Discord has verified its email.
  trustedProviders: [DISCORD_PROVIDER_ID],
};

/** The library's plugins for Discord: none when it is not configured. */
export async function discordAuthPlugins(siteOrigin: string): Promise<BetterAuthPlugin[]> {
  const discord = config().discordSignIn;
  if (!discord) return [];
  const { genericOAuth } = await import("better-auth/plugins/generic-oauth");
  return [
    genericOAuth({
      config: [
        {
          providerId: DISCORD_PROVIDER_ID,
          name: "Discord",
          clientId: discord.clientId,
          clientSecret: discord.clientSecret,
          authorizationUrl: discord.authorizationUrl,
          tokenUrl: discord.tokenUrl,
          userInfoUrl: discord.userInfoUrl,
          scopes: ["identify", "email"],
          // Our own page finishes the flow (the library's HTTP handler is not mounted).
          redirectURI: `${siteOrigin}${DISCORD_CALLBACK_PATH}`,
          // Discord skips its consent screen for a member who has already allowed the site.
          prompt: "none",
          // Only an identity already linked to an account signs in: none is ever created from Discord.
          disableSignUp: true,
          getUserInfo: (tokens) => discordUser(discord.userInfoUrl, tokens.accessToken),
        },
      ],
    }) as BetterAuthPlugin,
  ];
}

/** The parts of Discord's user object (GET /users/@me) the site reads. */
const DiscordUser = z.object({
  id: z.string().regex(/^\d{1,25}$/),
  username: z.string().min(1).max(100),
  global_name: z.string().max(100).nullish(),
  email: z.string().max(320).nullish(),
  verified: z.boolean().nullish(),
});

/**
 * Discord's user object, in the shape the library reads (id, name, email, emailVerified),
 * keeping the username and display name for the profile's "Sign-in methods" page. Null when
 * Discord does not answer in time or answers something else: the library then refuses the
 * sign-in with a message, rather than failing the request.
 */
async function discordUser(userInfoUrl: string, accessToken: string | undefined) {
  if (!accessToken) return null;
  try {
    const response = await fetch(userInfoUrl, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
      signal: AbortSignal.timeout(DISCORD_TIMEOUT_MS),
    });
    if (!response.ok) {
      logger.warn({ status: response.status }, "Discord refused the user request");
      return null;
    }
    const parsed = DiscordUser.safeParse(await response.json());
    if (!parsed.success) {
      logger.warn("Discord's user answer was not understood");
      return null;
    }
    const { id, username, global_name: globalName, email, verified } = parsed.data;
    return {
      id,
      username,
      globalName: globalName ?? null,
      name: globalName || username,
      // The library wants an email from every provider. A Discord account without one gets an
      // address that reaches nobody and matches no member (nothing is linked by email here).
      email: email || `${id}@discord.invalid`,
      emailVerified: Boolean(email && verified),
    };
  } catch (error) {
    logger.warn({ err: error }, "fetching the Discord user failed");
    return null;
  }
}
