import { useCallback, useEffect, useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";

declare module "react" {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      "altcha-widget": React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement> & { challenge?: string; name?: string; display?: string };
    }
  }
}

type AltchaGlobal = { algorithms: Map<string, () => Worker> };

/**
 * The CSP-friendly build of the widget ships no workers: register the one our
 * challenges use (server side: captcha.server.ts, PBKDF2/SHA-256).
 */
async function loadWidget() {
  const [, { default: Pbkdf2Worker }] = await Promise.all([import("altcha/external"), import("altcha/workers/pbkdf2?worker")]);
  (globalThis as unknown as { $altcha: AltchaGlobal }).$altcha.algorithms.set("PBKDF2/SHA-256", () => new Pbkdf2Worker());
}

type HostedWidget = { render: (element: HTMLElement, options: Record<string, unknown>) => unknown; reset: (id?: unknown) => void };
type AltchaElement = HTMLElement & { reset?: () => void };

type CaptchaProps = {
  onChange: (solved: boolean) => void;
  /**
   * The server's latest answer to the form. A solution is accepted once, so when the
   * server answers (and so has used it) the widget starts over with a fresh challenge.
   */
  answer?: unknown;
};

/** Runs `reset` each time the server answers the form again, not on the first render. */
function useResetOnAnswer(answer: unknown, reset: () => void) {
  const seen = useRef(answer);
  useEffect(() => {
    if (answer === seen.current) return;
    seen.current = answer;
    if (answer) reset();
  }, [answer, reset]);
}

/** Turnstile or hCaptcha, when configured instead of ALTCHA: their script renders into our form. */
function HostedCaptcha({ provider, siteKey, script, onChange, answer }: CaptchaProps & { provider: "turnstile" | "hcaptcha"; siteKey: string; script: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const widgetId = useRef<unknown>(undefined);
  const reset = useCallback(() => {
    (window as unknown as Record<string, HostedWidget | undefined>)[provider]?.reset(widgetId.current);
    onChange(false);
  }, [provider, onChange]);
  useResetOnAnswer(answer, reset);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const render = () => {
      const widget = (window as unknown as Record<string, HostedWidget | undefined>)[provider];
      widgetId.current = widget?.render(element, {
        sitekey: siteKey,
        callback: () => onChange(true),
        "expired-callback": () => onChange(false),
        "error-callback": () => onChange(false),
      });
    };
    if ((window as unknown as Record<string, unknown>)[provider]) return render();
    const tag = document.createElement("script");
    tag.src = script;
    tag.async = true;
    tag.addEventListener("load", render);
    document.head.append(tag);
  }, [provider, siteKey, script, onChange]);
  return <div ref={ref} />;
}

/**
 * The CAPTCHA: ALTCHA's proof of work by default, or a hosted one when configured.
 * Scripts load after hydration so the server render and the first client render
 * match; `onChange` says whether it is solved.
 */
export function Captcha({ onChange, answer }: CaptchaProps) {
  const settings = useRouteLoaderData<typeof rootLoader>("root")?.captcha;
  if (settings && settings.provider !== "altcha") {
    return (
      <div className="min-h-16">
        <HostedCaptcha provider={settings.provider} siteKey={settings.siteKey} script={settings.script} onChange={onChange} answer={answer} />
        <p className="no-js-only text-sm text-dust">The CAPTCHA needs JavaScript. Please turn JavaScript on to continue.</p>
      </div>
    );
  }
  return <AltchaCaptcha onChange={onChange} answer={answer} />;
}

function AltchaCaptcha({ onChange, answer }: CaptchaProps) {
  const ref = useRef<AltchaElement>(null);
  const [loaded, setLoaded] = useState(false);
  // Back to "I'm not a robot": ticking it again fetches and solves a new challenge.
  const reset = useCallback(() => {
    ref.current?.reset?.();
    onChange(false);
  }, [onChange]);
  useResetOnAnswer(answer, reset);

  useEffect(() => {
    let cancelled = false;
    void loadWidget().then(() => {
      if (!cancelled) setLoaded(true);
    });
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    const widget = ref.current;
    if (!widget) return;
    const onStateChange = (event: Event) => onChange((event as CustomEvent<{ state: string }>).detail?.state === "verified");
    widget.addEventListener("statechange", onStateChange);
    return () => widget.removeEventListener("statechange", onStateChange);
  }, [loaded, onChange]);

  // The widget's own height, kept from the first paint: the widget arrives after the page's
  // scripts start, and a taller box then would move what follows from under a press aimed at it.
  return (
    <div className="min-h-[70px]">
      {loaded ? (
        <altcha-widget ref={ref} challenge="/captcha/challenge" name="altcha" />
      ) : (
        <p className="js-only text-sm text-dust">Loading the CAPTCHA…</p>
      )}
      <p className="no-js-only text-sm text-dust">The CAPTCHA needs JavaScript. Please turn JavaScript on to continue.</p>
    </div>
  );
}

/**
 * "Complete the CAPTCHA to continue." under a form's button until the CAPTCHA is solved. Sent
 * with the page and shown from the first paint when scripts run (hidden without them, when the
 * server says it instead): appearing only once the page's scripts started, it pushed what follows
 * down under a press already aimed at it (the sign-in page's "Sign in with Discord").
 */
export function CaptchaHint({ solved, children = "Complete the CAPTCHA to continue." }: { solved: boolean; children?: string }) {
  return solved ? null : <p className="js-only text-center text-sm text-dust">{children}</p>;
}
