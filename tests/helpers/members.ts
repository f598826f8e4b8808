import { eq } from "drizzle-orm";
import type { Role } from "~/game/roles";
import { signIn, signUp } from "~/server/accounts.server";
import { database } from "~/server/db/client.server";
import { profiles } from "~/server/db/schema";

let counter = 0;

/** A member of `role` with a password, signed in: returns their id and the Cookie header to send. */
export async function signedInMember(role: Role, password = "Lantern#1877") {
  const n = ++counter;
  const email = `${role}${n}-${Date.now()}@example.com`;
  const outcome = await signUp({ firstName: `Test${n}`, lastName: role, email, password }, `192.0.2.${n}`);
  if (!outcome.ok) throw new Error(`sign-up failed: ${outcome.message}`);
  const db = await database();
  const [profile] = await db.update(profiles).set({ role }).where(eq(profiles.email, email)).returning({ id: profiles.id });
  const signedIn = await signIn({ email, password }, new Request("http://localhost/auth"), `198.51.100.${n}`);
  if (!signedIn.ok) throw new Error(`sign-in failed: ${signedIn.message}`);
  const cookie = signedIn.setCookies.map((c) => c.split(";")[0]).join("; ");
  return { id: profile!.id, email, password, cookie, firstName: `Test${n}` };
}
