import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { newChallenge } from "~/platform/captcha.server";

/** Solves one of the site's own challenges, as the browser widget does, and returns the form value. */
export async function solvedCaptcha(challenge?: Awaited<ReturnType<typeof newChallenge>>): Promise<string> {
  const issued = challenge ?? (await newChallenge());
  const solution = await solveChallenge({ challenge: issued, deriveKey });
  if (!solution) throw new Error("could not solve the CAPTCHA");
  return Buffer.from(JSON.stringify({ challenge: issued, solution })).toString("base64");
}
