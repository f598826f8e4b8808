import { E2E_STAND_INS } from "../playwright.config";
import { startMockDiscord } from "../tests/helpers/discord-oauth";
import { startWebhookServer } from "../tests/helpers/webhook";

/**
 * Playwright's global setup: starts the stand-ins for the services the second e2e server is
 * configured with (E2E_STAND_INS in playwright.config.ts) in the runner's process, for the whole
 * run, and stops them at its end. A spec reads the gateway's texts over HTTP (acceptedPosts),
 * since it runs in a worker process of its own.
 */
export default async function startStandIns() {
  const discord = await startMockDiscord(E2E_STAND_INS.discordPort);
  const gateway = await startWebhookServer(undefined, { port: E2E_STAND_INS.smsGatewayPort }).catch(async (error: unknown) => {
    await discord.close();
    throw error;
  });
  return async () => {
    await gateway.close();
    await discord.close();
  };
}
