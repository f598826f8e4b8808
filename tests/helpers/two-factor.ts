import { confirmEnrolment, startEnrolment } from "~/features/two-factor/enrolment.server";
import { totpNow } from "./totp";

export { totpNow, wrongTotp } from "./totp";

/**
 * Second factors for tests, through the same server functions as the pages, with codes
 * computed as a member's authenticator app would (./totp.ts).
 */

/**
 * A Cookie header from a browser that received these Set-Cookie headers in turn: later ones
 * replace earlier ones, and an emptied or expired cookie is dropped.
 */
export function cookieHeader(setCookies: string[], start = ""): string {
  const jar = new Map<string, string>();
  for (const pair of start.split(/;\s*/).filter(Boolean)) {
    const at = pair.indexOf("=");
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
  for (const line of setCookies) {
    const [pair, ...attributes] = line.split(";");
    const at = pair!.indexOf("=");
    const name = pair!.slice(0, at).trim();
    const value = pair!.slice(at + 1).trim();
    const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
    if (expired) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

function requestWith(cookie: string): Request {
  return new Request("http://localhost/profile/two-factor", { headers: { cookie, "user-agent": "tests" } });
}

/**
 * Enrols an authenticator app for a signed-in member (session `cookie`), as /profile/two-factor
 * does: password, then the first code. Returns the address (to compute codes), the backup codes
 * and the new (aal2) session's cookie.
 */
export async function enrolTotp(member: { id: string; email: string; password: string; cookie: string }) {
  const started = await startEnrolment(requestWith(member.cookie), member, member.password);
  if (!started.ok) throw new Error(`enrolment failed: ${started.message}`);
  const confirmed = await confirmEnrolment(requestWith(member.cookie), member, totpNow(started.uri));
  if (!confirmed.ok) throw new Error(`confirming the enrolment failed: ${confirmed.message}`);
  return {
    uri: started.uri,
    backupCodes: confirmed.backupCodes,
    cookie: cookieHeader(confirmed.setCookies, member.cookie),
  };
}
