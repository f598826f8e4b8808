import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "~/platform/config.server";
import { discordFormOrigins, discordSignInEnabled } from "~/identity/discord-oauth.server";
import { contentSecurityPolicy } from "../../../http/pipeline/security-headers";

function problems(env: Record<string, string>): string {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  return "";
}

describe("sign-in with Discord's settings", () => {
  it("is off without them", () => {
    const cfg = parseConfig({});
    expect(cfg.discordSignIn).toBeUndefined();
    expect(discordSignInEnabled(cfg)).toBe(false);
    expect(discordFormOrigins(cfg)).toEqual([]);
  });

  it("is on with a client ID and secret, with Discord's own addresses", () => {
    const cfg = parseConfig({ DISCORD_CLIENT_ID: "1234567890", DISCORD_CLIENT_SECRET: "s3cret" });
    expect(cfg.discordSignIn).toEqual({
      clientId: "1234567890",
      clientSecret: "s3cret",
      authorizationUrl: "https://discord.com/oauth2/authorize",
      tokenUrl: "https://discord.com/api/oauth2/token",
      userInfoUrl: "https://discord.com/api/users/@me",
    });
    expect(discordSignInEnabled(cfg)).toBe(true);
    expect(discordFormOrigins(cfg)).toEqual(["https://discord.com"]);
  });

  it("takes other addresses for the provider's three endpoints", () => {
    const cfg = parseConfig({
      DISCORD_CLIENT_ID: "id",
      DISCORD_CLIENT_SECRET: "secret",
      DISCORD_AUTHORIZATION_URL: "http://127.0.0.1:9400/authorize",
      DISCORD_TOKEN_URL: "http://127.0.0.1:9400/token",
      DISCORD_USERINFO_URL: "http://127.0.0.1:9400/userinfo",
    });
    expect(cfg.discordSignIn).toMatchObject({
      authorizationUrl: "http://127.0.0.1:9400/authorize",
      tokenUrl: "http://127.0.0.1:9400/token",
      userInfoUrl: "http://127.0.0.1:9400/userinfo",
    });
    expect(discordFormOrigins(cfg)).toEqual(["http://127.0.0.1:9400"]);
  });

  it("names the missing half of a configuration", () => {
    expect(problems({ DISCORD_CLIENT_ID: "id" })).toMatch(/DISCORD_CLIENT_SECRET: is needed with DISCORD_CLIENT_ID/);
    expect(problems({ DISCORD_CLIENT_SECRET: "secret" })).toMatch(
      /DISCORD_CLIENT_ID: is needed with DISCORD_CLIENT_SECRET/,
    );
    expect(problems({ DISCORD_TOKEN_URL: "http://127.0.0.1:9400/token" })).toMatch(
      /DISCORD_CLIENT_ID: is needed when DISCORD_AUTHORIZATION_URL, DISCORD_TOKEN_URL or DISCORD_USERINFO_URL is set/,
    );
    expect(
      problems({ DISCORD_CLIENT_ID: "id", DISCORD_CLIENT_SECRET: "secret", DISCORD_USERINFO_URL: "discord.com/api" }),
    ).toMatch(/DISCORD_USERINFO_URL: must be an http:\/\/ or https:\/\/ URL/);
  });

  it("lets forms go to Discord's origin and nowhere else", () => {
    const policy = (formTargets: string[]) =>
      contentSecurityPolicy({ inline: { nonce: "n" }, frameSources: ["'self'"], formTargets, secure: true });
    expect(policy([])).toContain("form-action 'self';");
    expect(policy(["https://discord.com"])).toContain("form-action 'self' https://discord.com;");
  });
});
