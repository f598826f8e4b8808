import fs from "node:fs";
import path from "node:path";
import { CONTROL_SOCKET } from "../app/ops/control/control-socket.server";
import { E2E_SERVICES_SERVER, E2E_STAND_INS } from "../playwright.config";
import { startMockDiscord } from "../tests/helpers/discord-oauth";
import { startStripeStandIn } from "../tests/helpers/stripe-stand-in";
import { startWebhookServer } from "../tests/helpers/webhook";
import { waitForAnswer } from "./own-server";

/**
 * Playwright's global setup, run once the servers of playwright.config.ts have been started:
 * waits for the second server, which Playwright starts without waiting for it, then starts the
 * stand-ins for the services it is configured with (E2E_STAND_INS) in the runner's process, for
 * the whole run, and stops them at its end. A spec reads the gateway's texts over HTTP
 * (acceptedPosts), since it runs in a worker process of its own.
 */
export default async function globalSetup() {
  await secondServerAnswers();
  const discord = await startMockDiscord(E2E_STAND_INS.discordPort);
  const gateway = await startWebhookServer(undefined, { port: E2E_STAND_INS.smsGatewayPort }).catch(
    async (error: unknown) => {
      await discord.close();
      throw error;
    },
  );
  const stripe = await startStripeStandIn({
    port: E2E_STAND_INS.stripePort,
    webhook: { url: `${E2E_SERVICES_SERVER.url}/webhooks/stripe`, secret: E2E_STAND_INS.stripeWebhookSecret },
  }).catch(async (error: unknown) => {
    await gateway.close();
    await discord.close();
    throw error;
  });
  return async () => {
    await stripe.close();
    await gateway.close();
    await discord.close();
  };
}

async function secondServerAnswers() {
  const { url, dataDir } = E2E_SERVICES_SERVER;
  await waitForAnswer(`${url}/healthz`, 240_000).catch((error: Error) => {
    throw new Error(`The second e2e server did not start (its output is above): ${error.message}`);
  });
  // Answered by this run's server, not by another process on its port: the server opens its
  // control socket in DATA_DIR before it listens, and exits at once when the port is taken.
  if (!fs.existsSync(path.join(dataDir, CONTROL_SOCKET))) {
    throw new Error(
      `${url} answers, but this run's second e2e server did not open its control socket in ${dataDir}: another process may hold its port (the server's output above says why)`,
    );
  }
}
