import type { IconName } from "./icon-shapes";
// Its own file, never inlined into the page: `<use>` cannot point into a data address, and
// one file is fetched once and kept (its name carries its content's hash).
import iconSprite from "./icons.svg?url&no-inline";

/** The sprite's address, for pages that must name it among their files (the event-day sheet kept offline). */
export const ICON_SPRITE_URL = iconSprite;

/**
 * An icon from the site's sprite (icon-shapes.ts lists them). Every icon on the site stands
 * beside words that say the same, so it is hidden from screen readers.
 */
export function Icon({
  name,
  className,
  strokeWidth = 2,
}: {
  name: IconName;
  className?: string;
  strokeWidth?: number;
}) {
  return (
    <svg width={24} height={24} strokeWidth={strokeWidth} className={className} aria-hidden="true" focusable="false">
      <use href={`${iconSprite}#${name}`} />
    </svg>
  );
}
