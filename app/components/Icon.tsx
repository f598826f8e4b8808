import { createElement, type ReactElement } from "react";
import type { IconNode } from "lucide";

/**
 * Lucide's drawing of each shape (the `lucide` package: an icon is a list of SVG elements),
 * built into React elements once per icon and reused, not rebuilt at every render. Every icon
 * on the site stands beside words that say the same, so it is hidden from screen readers.
 */
const drawn = new WeakMap<IconNode, ReactElement[]>();

function shapes(icon: IconNode): ReactElement[] {
  let elements = drawn.get(icon);
  if (!elements) {
    elements = icon.map(([tag, attributes], index) => createElement(tag, { ...attributes, key: index }));
    drawn.set(icon, elements);
  }
  return elements;
}

export function Icon({ icon, className, strokeWidth = 2 }: { icon: IconNode; className?: string; strokeWidth?: number }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden="true"
      focusable="false"
    >
      {shapes(icon)}
    </svg>
  );
}
