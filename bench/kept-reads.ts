/**
 * What the reads kept in memory save, per call, in this process: `node --import tsx
 * bench/kept-reads.ts [--calls 2000] [--rounds 5]`. On a fresh embedded database (or
 * DATABASE_URL) it signs a member in, then times the kept reads a signed-in page makes
 * (who is signed in, the profile overview, the upcoming events) with their copies used
 * (announcements followed) and read every time (not followed), alternating rounds so both
 * see the same machine. Prints the median per call of each, in microseconds.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { signIn, signUp } from "~/features/accounts/accounts.server";
import { changesAreFollowed, followDatabaseChanges } from "~/platform/db/changes.server";
import { closeDatabase, databaseHandle, openDatabase, setDatabase } from "~/platform/db/client.server";
import { createEvent } from "~/platform/db/factories";
import { listUpcomingEvents } from "~/features/events/events.server";
import { profileOverview } from "~/features/members/profiles.server";
import { getSessionUser } from "~/identity/session.server";

const { values } = parseArgs({
  options: { calls: { type: "string", default: "2000" }, rounds: { type: "string", default: "5" } },
});
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-kept-reads-"));
const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
setDatabase(handle);
for (let i = 0; i < 5; i++) await createEvent(handle.db, { status: "future" });
const email = `bench-${Date.now()}@example.com`;
const password = "Lantern#1877";
const signedUp = await signUp({ firstName: "Bench", lastName: "Member", email, password }, "192.0.2.1");
if (!signedUp.ok) throw new Error(signedUp.message);
const signedIn = await signIn({ email, password }, new Request("http://localhost/auth"), "192.0.2.1");
if (!signedIn.ok) throw new Error(signedIn.message);
const cookie = signedIn.setCookies.map((c) => c.split(";")[0]).join("; ");
const request = new Request("http://localhost/profile", { headers: { Cookie: cookie } });
const member = (await getSessionUser(request)).user!;

const reads: Record<string, () => Promise<unknown>> = {
  "session answer": () => getSessionUser(request),
  "profile overview": () => profileOverview(member.id),
  "upcoming events": () => listUpcomingEvents(),
};

async function perCallUs(read: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 50; i++) await read();
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await read();
  return ((performance.now() - started) * 1000) / CALLS;
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const figures: Record<string, { kept: number[]; read: number[] }> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, read] of Object.entries(reads)) {
    figures[name] ??= { kept: [], read: [] };
    figures[name].read.push(await perCallUs(read));
    const feed = followDatabaseChanges(databaseHandle());
    while (!changesAreFollowed()) await new Promise((resolve) => setTimeout(resolve, 5));
    figures[name].kept.push(await perCallUs(read));
    await feed.stop();
  }
}
for (const [name, { kept, read }] of Object.entries(figures)) {
  console.log(
    `${name}: kept ${median(kept).toFixed(0)} µs, read ${median(read).toFixed(0)} µs per call (medians of ${ROUNDS}; read rounds ${read.map((n) => n.toFixed(0)).join(", ")})`,
  );
}
await closeDatabase();
fs.rmSync(dataDir, { recursive: true, force: true });
