/**
 * The database schema, one module per concern: the members' and the game's tables,
 * the auth library's tables, the site's own machinery (limits, outbox, audit), members' data exports, costume photos, the review queues, ticket purchases, the club's own facts and the managers' messages to members.
 * drizzle-kit reads this file; everything else imports tables from here.
 */
export * from "./schema-members";
export * from "./schema-game";
export * from "./schema-auth";
export * from "./schema-system";
export * from "./schema-exports";
export * from "./schema-costumes";
export * from "./schema-review";
export * from "./schema-tickets";
export * from "./schema-club";
export * from "./schema-messages";
