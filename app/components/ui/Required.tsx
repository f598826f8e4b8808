import type { ReactElement, ReactNode } from "react";

/**
 * The mark beside a required field's label, and the line at a form's top that says what it
 * means. The mark is for the eye only: the control's own `required` tells a screen reader, which
 * says "required" with each such field.
 */
export function RequiredMark() {
  return (
    <span aria-hidden="true" className="ml-1 font-bold text-brass" data-required-mark="">
      *
    </span>
  );
}

/**
 * A field's label followed by the required mark when `marked`. The mark sits beside the label,
 * not in it, so the label's text, and with it the control's name, stays the field's name alone.
 */
export function MarkedLabel({ marked, children }: { marked: boolean | undefined; children: ReactElement }) {
  if (!marked) return children;
  // A block with the label inline in it: the mark follows the label's last word, however it wraps.
  return (
    <div>
      {children}
      <RequiredMark />
    </div>
  );
}

/** The mark as the note at a form's top names it: "(*)", for the eye only (the words say "asterisk"). */
export function Asterisk() {
  return (
    <span aria-hidden="true" className="text-brass">
      (*)
    </span>
  );
}

/** What the mark means, said once at the top of a form that uses it; `children` words it for the form. */
export function RequiredNote({ children }: { children?: ReactNode }) {
  return (
    <p className="text-sm text-dust" data-testid="required-note">
      {children ?? (
        <>
          Fields marked with an asterisk <Asterisk /> are required.
        </>
      )}
    </p>
  );
}
