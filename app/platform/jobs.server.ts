import { logger } from "./logger.server";

/**
 * The server's background work. Every job is declared in one of two shapes and started and
 * stopped through startJobs, so start-up lists them in one place (app/server-parts.server.ts), and a
 * stop waits for each one's work in progress before the database closes.
 */
export type Job = TimerJob | ServiceJob;

/** Work run on a timer: the first run `firstAfterMs` after start-up, then one every `everyMs` after that. */
export type TimerJob = {
  /** What the job does, for the log when a run fails ("sending costume reminders failed"). */
  name: string;
  firstAfterMs: number;
  everyMs: number;
  run: () => Promise<unknown>;
  /** Work done once as the job starts (tidying after a process stopped mid-run); runs wait for it. */
  atStart?: () => Promise<unknown>;
  /** Work a run hands on and that a stop must also wait for (the member data exports being built). */
  handedOn?: () => Promise<void>;
};

/** A job that keeps its own pace (the outbox's lanes, the control socket), started and stopped as a whole. */
export type ServiceJob = { name: string; start: () => Running | Promise<Running> };

export type Running = { stop: () => Promise<void> };

/**
 * Starts a timer job. A run that is due while the previous one is still going is skipped rather
 * than started beside it; a failed run is logged and the next one comes at its time.
 */
export function startTimerJob(job: TimerJob): Running & { settled: () => Promise<void> } {
  const logged = (work: Promise<unknown>) =>
    work.catch((error: unknown) => logger.warn({ err: error }, `${job.name} failed`));
  let running: Promise<unknown> | undefined = job.atStart
    ? logged(job.atStart()).finally(() => (running = undefined))
    : undefined;
  const tick = () => {
    running ??= logged(job.run()).finally(() => (running = undefined));
  };
  let every: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    tick();
    every = setInterval(tick, job.everyMs);
    every.unref();
  }, job.firstAfterMs);
  first.unref();
  const settled = async () => {
    await running;
    await job.handedOn?.();
  };
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(every);
      await settled();
    },
    settled,
  };
}

/** Starts every job in order; stopping stops them in the reverse order, each after its work in progress. */
export async function startJobs(jobs: Job[]): Promise<Running> {
  const started: Running[] = [];
  for (const job of jobs) started.push("start" in job ? await job.start() : startTimerJob(job));
  return {
    async stop() {
      for (const job of started.reverse()) await job.stop();
    },
  };
}
