import type { ComponentProps, MouseEvent } from "react";

/**
 * A form's submit button that says it is busy while its form is being sent and ignores presses
 * meanwhile, without the `disabled` attribute: a disabled button loses the keyboard focus, which
 * then falls to the page's start, so a keyboard user who pressed "Take it" had to find their
 * place again. It stays focused and is announced as unavailable until the answer arrives.
 */
export function SubmitButton({
  busy,
  className = "",
  onClick,
  ...props
}: Omit<ComponentProps<"button">, "type" | "disabled"> & { busy: boolean }) {
  const ignoreWhileBusy = (event: MouseEvent<HTMLButtonElement>) => {
    if (busy) event.preventDefault();
    else onClick?.(event);
  };
  return (
    <button
      type="submit"
      aria-disabled={busy || undefined}
      className={`${className} aria-disabled:cursor-wait aria-disabled:opacity-60`}
      onClick={ignoreWhileBusy}
      {...props}
    />
  );
}

/** The main button at the foot of a member's form, saying what it is doing while the form is sent. */
export function FormFootButton({ busy, busyLabel, children }: { busy: boolean; busyLabel: string; children: string }) {
  return (
    <SubmitButton className="btn btn-primary self-center px-10" busy={busy}>
      {busy ? busyLabel : children}
    </SubmitButton>
  );
}
