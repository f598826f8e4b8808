import { count, eq } from "drizzle-orm";
import { ChangeAwareCache } from "~/platform/db/changes.server";
import { database } from "~/platform/db/client.server";
import { applications } from "~/platform/db/schema";

/**
 * How many applications wait for a manager's decision, for the managers' home page: kept until a
 * write to the applications is announced, as every manager's visit to `/` reads it.
 */
const keptPending = new ChangeAwareCache<number>({
  name: "pending applications",
  tables: ["applications"],
  maxAgeMs: 60_000,
  maxEntries: 1,
});

export function pendingApplicationCount(): Promise<number> {
  return keptPending.get("pending", async () => {
    const db = await database();
    const [row] = await db.select({ n: count() }).from(applications).where(eq(applications.status, "pending"));
    return row?.n ?? 0;
  });
}
