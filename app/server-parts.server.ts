/**
 * What the HTTP server (http/) takes from the features, gathered here so that http/ imports no
 * feature itself (docs/development.md, "Which way imports go"): every background job, the
 * outside origins the pages' Content-Security-Policy must allow, and the first manager's
 * set-up link that start-up prints. Like root.tsx and the routes, this module stands above the
 * features.
 */
import { openFirstManagerSetup } from "~/features/accounts/first-manager.server";
import { costumeRemindersJob } from "~/features/costume/costume-reminders.server";
import { exportJob } from "~/features/member-data/member-data.server";
import { frameOrigins, scriptOrigins } from "~/features/site/site.server";
import { ticketReconciliationJob } from "~/features/tickets/reconcile.server";
import { stripeCheckoutOrigins } from "~/features/tickets/stripe.server";
import { discordFormOrigins } from "~/identity/discord-oauth.server";
import { scheduledBackupsJob } from "~/ops/backup/schedule.server";
import { controlSocketJob } from "~/ops/control/operations.server";
import { pruneUsedCaptchas } from "~/platform/captcha.server";
import type { Config } from "~/platform/config.server";
import type { DatabaseHandle } from "~/platform/db/client.server";
import { embeddedMaintenanceJob } from "~/platform/db/maintenance.server";
import { deliverDiscord } from "~/platform/discord/discord.server";
import type { Job } from "~/platform/jobs.server";
import { deliverEmail } from "~/platform/mail/mailer.server";
import { type Deliverers } from "~/platform/outbox/outbox.server";
import { deliverClubMessage } from "~/features/messages/deliver.server";
import { startOutboxWorker } from "~/platform/outbox/outbox-worker.server";
import { pruneRateLimits } from "~/platform/rate-limit.server";
import { deliverSms } from "~/platform/sms/sms.server";
import { orphanSweepJob } from "~/platform/storage/sweep.server";

export { openFirstManagerSetup };

/** The origins besides our own that the pages may frame, load scripts from, and send forms to. */
export function outsideOrigins(cfg: Config): {
  frameSources: string[];
  scriptSources: string[];
  formTargets: string[];
} {
  return {
    frameSources: frameOrigins(cfg),
    scriptSources: scriptOrigins(cfg),
    formTargets: [...discordFormOrigins(cfg), ...stripeCheckoutOrigins(cfg)],
  };
}

/** Expired rate-limit counters and used CAPTCHA challenges are only kept until they expire. */
const PRUNE_EVERY_MS = 10 * 60_000;

/** Every background job of the server, in the order they start (app/platform/jobs.server.ts starts and stops them). A new job is declared with the feature it serves and listed here. */
export function backgroundJobs(handle: DatabaseHandle, cfg: Config): Job[] {
  // Without SMTP, emails wait in the outbox (visible to staff) until it is configured.
  // The managers' messages to members are email too, in a lane of their own.
  const deliverers: Deliverers = {
    ...(cfg.mail.smtpUrl ? { email: deliverEmail, "club-message": deliverClubMessage } : {}),
    ...(cfg.discord.webhookUrl ? { discord: deliverDiscord } : {}),
    ...(cfg.sms.webhookUrl ? { sms: deliverSms } : {}),
  };
  return [
    { name: "outbox", start: () => startOutboxWorker(deliverers) },
    {
      name: "pruning expired sign-in counters and CAPTCHA challenges",
      firstAfterMs: PRUNE_EVERY_MS,
      everyMs: PRUNE_EVERY_MS,
      run: () => Promise.all([pruneRateLimits(), pruneUsedCaptchas()]),
    },
    orphanSweepJob,
    // Members' data exports asked for before a restart are built, and expired ones removed.
    exportJob(),
    // Costume reminders, 21 and 15 days before each event, looked for hourly.
    costumeRemindersJob(),
    // Ticket payments Stripe's webhook missed, asked of Stripe every 15 minutes.
    ...(cfg.stripe ? [ticketReconciliationJob] : []),
    // The embedded database's upkeep, and the control socket the command-line tools use while
    // this process holds that database.
    ...(handle.kind === "pglite" ? [embeddedMaintenanceJob(handle.db), controlSocketJob(handle, cfg)] : []),
    ...(cfg.backup.dir
      ? [scheduledBackupsJob(handle, { dir: cfg.backup.dir, everyMs: cfg.backup.everyMs, keep: cfg.backup.keep })]
      : []),
  ];
}
