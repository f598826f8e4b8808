import { desc, eq } from "drizzle-orm";
import { database } from "~/platform/db/client.server";
import { CLUB_PAGES } from "./club-pages";
import { clubFactVersions, profiles } from "~/platform/db/schema";

/** Each page with its newest saved version (who and when), or none while it shows the starting one. */
export async function loadClubHub() {
  const db = await database();
  const newest = await db
    .selectDistinctOn([clubFactVersions.kind], {
      kind: clubFactVersions.kind,
      version: clubFactVersions.version,
      createdAt: clubFactVersions.createdAt,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
    })
    .from(clubFactVersions)
    .leftJoin(profiles, eq(profiles.id, clubFactVersions.changedBy))
    .orderBy(clubFactVersions.kind, desc(clubFactVersions.version));
  const byKind = new Map(newest.map((row) => [row.kind, row]));
  return CLUB_PAGES.map((page) => {
    const last = byKind.get(page.kind);
    return {
      ...page,
      last: last
        ? {
            version: last.version,
            at: last.createdAt.toISOString(),
            by: last.firstName ? `${last.firstName} ${last.lastName}` : "a former member",
          }
        : null,
    };
  });
}
