import type { captchaWidgetSettings } from "~/platform/captcha.server";

/**
 * The CAPTCHA in the browser, written against the page's elements rather than React, so that
 * a page React draws (components/Captcha.tsx) and the sign-in page, which the server alone
 * draws (routes/auth/auth.page.ts), run the same code.
 */

export type CaptchaSettings = ReturnType<typeof captchaWidgetSettings>;

export type CaptchaHandle = {
  /** Back to unsolved, with a fresh challenge: a solution is accepted once. */
  reset: () => void;
  /** Stops listening (the element is leaving the page). */
  stop: () => void;
};

type AltchaGlobal = { algorithms: Map<string, () => Worker> };
type HostedWidget = {
  render: (element: HTMLElement, options: Record<string, unknown>) => unknown;
  reset: (id?: unknown) => void;
};
type AltchaElement = HTMLElement & { reset?: () => void };

/**
 * The CSP-friendly build of ALTCHA's widget ships no workers: register the one our
 * challenges use (server side: captcha.server.ts, PBKDF2/SHA-256).
 */
async function loadAltcha() {
  const [, { default: Pbkdf2Worker }] = await Promise.all([
    import("altcha/external"),
    import("altcha/workers/pbkdf2?worker"),
  ]);
  (globalThis as unknown as { $altcha: AltchaGlobal }).$altcha.algorithms.set(
    "PBKDF2/SHA-256",
    () => new Pbkdf2Worker(),
  );
}

function hostedWidget(provider: string): HostedWidget | undefined {
  return (window as unknown as Record<string, HostedWidget | undefined>)[provider];
}

/**
 * Puts the CAPTCHA into `slot`: ALTCHA's proof of work by default, or Turnstile or hCaptcha
 * when configured. `onChange` says whether it is solved. `loading`, when given, is the note
 * shown until the widget arrives; it is hidden then.
 */
export function startCaptcha(
  slot: HTMLElement,
  settings: CaptchaSettings,
  onChange: (solved: boolean) => void,
  loading?: HTMLElement | null,
): CaptchaHandle {
  let stopped = false;
  if (settings.provider === "altcha") {
    let widget: AltchaElement | null = null;
    const onStateChange = (event: Event) =>
      onChange((event as CustomEvent<{ state: string }>).detail?.state === "verified");
    void loadAltcha().then(() => {
      if (stopped) return;
      widget = document.createElement("altcha-widget");
      widget.setAttribute("challenge", "/captcha/challenge");
      widget.setAttribute("name", "altcha");
      widget.addEventListener("statechange", onStateChange);
      slot.append(widget);
      loading?.setAttribute("hidden", "");
    });
    return {
      // Back to "I'm not a robot": ticking it again fetches and solves a new challenge.
      reset: () => {
        widget?.reset?.();
        onChange(false);
      },
      stop: () => {
        stopped = true;
        widget?.removeEventListener("statechange", onStateChange);
        widget?.remove();
      },
    };
  }

  const { provider, siteKey, script } = settings;
  let widgetId: unknown;
  const render = () => {
    if (stopped) return;
    widgetId = hostedWidget(provider)?.render(slot, {
      sitekey: siteKey,
      callback: () => onChange(true),
      "expired-callback": () => onChange(false),
      "error-callback": () => onChange(false),
    });
  };
  if (hostedWidget(provider)) render();
  else {
    const tag = document.createElement("script");
    tag.src = script;
    tag.async = true;
    tag.addEventListener("load", render);
    document.head.append(tag);
  }
  return {
    reset: () => {
      hostedWidget(provider)?.reset(widgetId);
      onChange(false);
    },
    stop: () => {
      stopped = true;
    },
  };
}
