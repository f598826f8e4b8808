import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real OAuth 2 / OpenID Connect server (oauth2-mock-server) standing in for Discord: the
 * site talks to it exactly as to Discord (authorize, token, user endpoints), only the three
 * addresses differ. Its authorize page asks who to be (a Discord username, and optionally the
 * account's email) as Discord's own would; tests that skip the page add `login` (and `email`)
 * to the authorize address themselves. Its user endpoint answers in Discord's shape for
 * whoever the access token was issued to.
 */

export type DiscordIdentity = { id: string; username: string; globalName: string; email: string; verified: boolean };

/** The same Discord account for the same username, with a snowflake-like id. */
export function discordIdentity(username: string, email?: string): DiscordIdentity {
  const digits = BigInt(`0x${crypto.createHash("sha256").update(username).digest("hex").slice(0, 15)}`).toString();
  return {
    id: `1${digits.padStart(18, "0")}`,
    username,
    globalName: username.charAt(0).toUpperCase() + username.slice(1),
    email: email ?? `${username}@discord.example`,
    verified: true,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function consentPage(query: URLSearchParams): string {
  const hidden = [...query]
    .filter(([name]) => !["login", "email", "deny"].includes(name))
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Authorize · Mock Discord</title></head><body><main><h1>Mock Discord</h1><p>Hopewell wants to know who you are on Discord.</p>
<form method="get" action="/authorize">${hidden}
<p><label>Discord username <input name="login" required autocomplete="off"></label></p>
<p><label>Email (optional) <input name="email" type="email" autocomplete="off"></label></p>
<p><button type="submit">Authorize</button> <button type="submit" name="deny" value="1" formnovalidate>Cancel</button></p>
</form></main></body></html>`;
}

export type MockDiscordEnv = {
  DISCORD_CLIENT_ID: string;
  DISCORD_CLIENT_SECRET: string;
  DISCORD_AUTHORIZATION_URL: string;
  DISCORD_TOKEN_URL: string;
  DISCORD_USERINFO_URL: string;
};

/**
 * The site's settings for the stand-in at `url`. Known before it starts, so that a server
 * started first (the browser tests' second one) can be pointed at a stand-in started later.
 */
export function mockDiscordEnv(url: string): MockDiscordEnv {
  return {
    DISCORD_CLIENT_ID: "hopewell-test-client",
    DISCORD_CLIENT_SECRET: "hopewell-test-secret",
    DISCORD_AUTHORIZATION_URL: `${url}/authorize`,
    DISCORD_TOKEN_URL: `${url}/token`,
    DISCORD_USERINFO_URL: `${url}/userinfo`,
  };
}

export type MockDiscord = {
  url: string;
  env: MockDiscordEnv;
  /** How many times the user endpoint was asked. */
  userRequests: () => number;
  /** Every code and token this server has handed out, for checking that none is logged. */
  secrets: () => string[];
  close: () => Promise<void>;
};

export async function startMockDiscord(port = 0): Promise<MockDiscord> {
  // Loaded here, not at the top: the browser tests' configuration reads mockDiscordEnv in every
  // worker, and the library took half a second to load.
  const { OAuth2Issuer, OAuth2Service } = await import("oauth2-mock-server");
  const issuer = new OAuth2Issuer();
  await issuer.keys.generate("RS256");
  const service = new OAuth2Service(issuer);
  const byCode = new Map<string, DiscordIdentity>();
  let userRequests = 0;
  const secrets: string[] = [];

  service.on("beforeAuthorizeRedirect", (redirect: { url: URL }, req: http.IncomingMessage) => {
    const query = new URL(req.url ?? "/", "http://mock").searchParams;
    const code = redirect.url.searchParams.get("code");
    const login = query.get("login");
    if (code && login) byCode.set(code, discordIdentity(login, query.get("email") || undefined));
    if (code) secrets.push(code);
  });
  service.on("beforeResponse", (response: { body: Record<string, unknown> }) => {
    for (const name of ["access_token", "refresh_token", "id_token"])
      if (typeof response.body[name] === "string") secrets.push(response.body[name]);
  });
  service.on(
    "beforeTokenSigning",
    (token: { payload: Record<string, unknown> }, req: http.IncomingMessage & { body?: Record<string, string> }) => {
      const identity = req.body?.code ? byCode.get(req.body.code) : undefined;
      if (!identity) return;
      token.payload.sub = identity.id;
      token.payload.discord = identity;
    },
  );
  service.on("beforeUserinfo", (response: { body: unknown; statusCode: number }, req: http.IncomingMessage) => {
    userRequests += 1;
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const payload = token?.split(".")[1];
    const identity = payload
      ? (JSON.parse(Buffer.from(payload, "base64url").toString()) as { discord?: DiscordIdentity }).discord
      : undefined;
    if (!identity) {
      response.statusCode = 401;
      response.body = { message: "401: Unauthorized", code: 0 };
      return;
    }
    response.body = {
      id: identity.id,
      username: identity.username,
      global_name: identity.globalName,
      discriminator: "0",
      avatar: null,
      email: identity.email,
      verified: identity.verified,
    };
  });

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://mock");
    if (url.pathname === "/authorize" && req.method === "GET" && !url.searchParams.get("login")) {
      const redirectUri = url.searchParams.get("redirect_uri");
      if (url.searchParams.get("deny") && redirectUri) {
        // The member said no: Discord sends them back with access_denied and the state.
        const back = new URL(redirectUri);
        back.searchParams.set("error", "access_denied");
        const state = url.searchParams.get("state");
        if (state) back.searchParams.set("state", state);
        res.writeHead(302, { Location: back.href }).end();
        return;
      }
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(consentPage(url.searchParams));
      return;
    }
    service.requestHandler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer.url = url;
  return {
    url,
    env: mockDiscordEnv(url),
    userRequests: () => userRequests,
    secrets: () => [...secrets],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
