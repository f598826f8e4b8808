import { useEffect, useRef, type RefObject } from "react";
import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import { startCaptcha, type CaptchaHandle, type CaptchaSettings } from "./captcha-widget";

type CaptchaProps = {
  onChange: (solved: boolean) => void;
  /**
   * The server's latest answer to the form. A solution is accepted once, so when the
   * server answers (and so has used it) the widget starts over with a fresh challenge.
   */
  answer?: unknown;
};

/**
 * The CAPTCHA: ALTCHA's proof of work by default, or a hosted one when configured
 * (captcha-widget.ts puts it in the page). The widget arrives once the page's scripts run, so
 * the server render and the first client render match; `onChange` says whether it is solved.
 */
export function Captcha({ onChange, answer }: CaptchaProps) {
  const settings = useRouteLoaderData<typeof rootLoader>("root")?.captcha ?? { provider: "altcha" as const };
  const slot = useRef<HTMLDivElement>(null);
  const loading = useRef<HTMLParagraphElement>(null);
  const handle = useRef<CaptchaHandle | null>(null);
  const settingsKey = JSON.stringify(settings);
  // The latest `onChange`, so a new function from the page does not start the widget over.
  const report = useRef(onChange);
  useEffect(() => {
    report.current = onChange;
  }, [onChange]);

  useEffect(() => {
    if (!slot.current) return;
    const started = startCaptcha(
      slot.current,
      JSON.parse(settingsKey) as CaptchaSettings,
      (solved) => report.current(solved),
      loading.current,
    );
    handle.current = started;
    return () => {
      started.stop();
      handle.current = null;
    };
  }, [settingsKey]);

  // Runs the reset each time the server answers the form again, not on the first render.
  const seen = useRef(answer);
  useEffect(() => {
    if (answer === seen.current) return;
    seen.current = answer;
    if (answer) handle.current?.reset();
  }, [answer]);

  return <CaptchaBox settings={settings} slot={slot} loading={loading} />;
}

/**
 * Where the CAPTCHA goes, and the notes around it: "Loading the CAPTCHA…" until it arrives,
 * and, without JavaScript, that it needs JavaScript. The box keeps the widget's height from
 * the first paint: the widget arrives after the page's scripts start, and a taller box then
 * would move what follows from under a press aimed at it. `data-captcha` carries the settings
 * to a page the server alone draws (routes/auth/auth.page.ts).
 */
export function CaptchaBox({
  settings,
  slot,
  loading,
}: {
  settings: CaptchaSettings;
  slot?: RefObject<HTMLDivElement | null>;
  loading?: RefObject<HTMLParagraphElement | null>;
}) {
  const hosted = settings.provider !== "altcha";
  return (
    <div className={hosted ? "min-h-16" : "min-h-[70px]"} data-captcha={JSON.stringify(settings)}>
      <div ref={slot} data-captcha-slot="" />
      {hosted ? null : (
        <p ref={loading} data-captcha-loading="" className="js-only text-sm text-dust">
          Loading the CAPTCHA…
        </p>
      )}
      <p className="no-js-only text-sm text-dust">
        The CAPTCHA needs JavaScript. Please turn JavaScript on to continue.
      </p>
    </div>
  );
}

/**
 * "Complete the CAPTCHA to continue." under a form's button until the CAPTCHA is solved. Sent
 * with the page and shown from the first paint when scripts run (hidden without them, when the
 * server says it instead): appearing only once the page's scripts started, it pushed what follows
 * down under a press already aimed at it (the sign-in page's "Sign in with Discord").
 */
export function CaptchaHint({
  solved,
  children = "Complete the CAPTCHA to continue.",
}: {
  solved: boolean;
  children?: string;
}) {
  return solved ? null : (
    <p data-captcha-hint="" className="js-only text-center text-sm text-dust">
      {children}
    </p>
  );
}
