import { useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "react-router";

/**
 * A menu built on <details>, so it opens and closes without JavaScript and with
 * the keyboard. With JavaScript it also closes on Escape, on a click outside and
 * after navigating.
 */
export function Disclosure({
  summary,
  summaryClassName,
  panelClassName,
  className,
  children,
}: {
  summary: ReactNode;
  summaryClassName?: string;
  panelClassName?: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  // The page the menu was drawn on: a menu opened there before the scripts started (a tap on a
  // slow phone) stays open when they do; it closes once the member moves to another page.
  const drawnOn = useRef(location.key);

  useEffect(() => {
    if (location.key === drawnOn.current) return;
    drawnOn.current = location.key;
    if (ref.current) ref.current.open = false;
  }, [location]);

  useEffect(() => {
    function onPointerDown(event: PointerEvent) {
      const details = ref.current;
      if (details?.open && !details.contains(event.target as Node)) details.open = false;
    }
    function onKeyDown(event: KeyboardEvent) {
      const details = ref.current;
      if (event.key === "Escape" && details?.open) {
        details.open = false;
        details.querySelector("summary")?.focus();
      }
    }
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, []);

  return (
    <details ref={ref} className={className}>
      <summary className={summaryClassName}>{summary}</summary>
      <div className={panelClassName}>{children}</div>
    </details>
  );
}
