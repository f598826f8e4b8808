import { APPLICATION_TEXT_QUESTIONS } from "~/game/application";

/** A complete, valid application as a form would send it. */
export function validApplication(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    discordTag: "settler_1877",
    rolePreference: "player",
    ...Object.fromEntries(
      APPLICATION_TEXT_QUESTIONS.map((q, i) => [
        q.key,
        `Answer ${i + 1}: I have thought about ${q.label.toLowerCase()}`,
      ]),
    ),
    ...overrides,
  };
}

/** Posts a form to the test server as a page of our own would. */
export function postForm(baseUrl: string, path: string, fields: Record<string, string>, cookie?: string) {
  return fetch(baseUrl + path, {
    method: "POST",
    headers: {
      Origin: baseUrl,
      "Content-Type": "application/x-www-form-urlencoded",
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}
