import { describe, expect, it } from "vitest";
import { LetterForm } from "~/features/letters/letters.form";
import { FORM_MESSAGES, parseForm, readForm, searchTerm, textField } from "~/web/forms/kernel";

const post = (body: BodyInit | null, type?: string) =>
  new Request("http://localhost/letters", { method: "POST", body, headers: type ? { "Content-Type": type } : {} });

async function refusal(promise: Promise<unknown>) {
  const thrown = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  // React Router's data(), thrown, becomes the route's error page with this status.
  return {
    status: (thrown as { init?: { status?: number } })?.init?.status,
    data: (thrown as { data?: unknown })?.data,
  };
}

describe("the form kernel", () => {
  it("refuses control characters in text, but keeps tabs and line breaks", () => {
    const field = textField(100);
    for (const bad of ["Mum\u0000", "a\u0001b", "esc\u001b[31m", "del\u007f"]) {
      expect(field.safeParse(bad).error?.issues[0]?.message, JSON.stringify(bad)).toBe(FORM_MESSAGES.controlCharacters);
    }
    expect(field.parse(" Dear Ma,\n\tall is well.\r\n ")).toBe("Dear Ma,\n\tall is well.");
    expect(field.safeParse("x".repeat(101)).error?.issues[0]?.message).toBe(
      "Please keep this to 100 characters or fewer",
    );
  });

  it("cuts a search to 100 characters and refuses control characters in it", () => {
    expect(searchTerm.parse("y".repeat(150))).toHaveLength(100);
    expect(searchTerm.safeParse("\u0000").success).toBe(false);
  });

  it("reads urlencoded and multipart forms, and checks them with the form's schema", async () => {
    const key = crypto.randomUUID();
    const urlencoded = await parseForm(
      post(
        new URLSearchParams({ submissionKey: key, recipient: "Ma", body: "Hello" }),
        "application/x-www-form-urlencoded;charset=UTF-8",
      ),
      LetterForm,
    );
    expect(urlencoded).toMatchObject({ ok: true, data: { recipient: "Ma" } });
    const form = new FormData();
    form.set("submissionKey", key);
    form.set("recipient", "Ma\u0000");
    form.set("body", "Hello");
    const multipart = await parseForm(
      new Request("http://localhost/letters", { method: "POST", body: form }),
      LetterForm,
    );
    expect(multipart).toMatchObject({
      ok: false,
      errors: { recipient: FORM_MESSAGES.controlCharacters },
      values: { recipient: "Ma\u0000" },
    });
  });

  it("answers a body that is not a form with one 400 and its message", async () => {
    const cases: [BodyInit | null, string | undefined][] = [
      ['{"recipient":"Ma"}', "application/json"],
      ["recipient=Ma", "text/plain"],
      ["--other\r\n\r\n", "multipart/form-data; boundary=expected"],
      ["garbage", "multipart/form-data"],
      [new Blob(["recipient=Ma"]), undefined],
      [null, undefined],
    ];
    for (const [body, type] of cases) {
      expect(await refusal(readForm(post(body, type))), `${type}`).toEqual({
        status: 400,
        data: FORM_MESSAGES.unreadable,
      });
    }
  });
});
