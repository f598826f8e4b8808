import {
  CalendarClock,
  CalendarDays,
  CalendarPlus,
  Car,
  Check,
  ChevronDown,
  CircleAlert,
  CircleCheck,
  CloudLightning,
  Eye,
  EyeOff,
  Flame,
  Hammer,
  type IconNode,
  Mail,
  MapPin,
  Megaphone,
  Menu,
  Phone,
  Skull,
  Tent,
  Ticket,
  TriangleAlert,
  X,
} from "lucide";

/**
 * Every icon the site shows, by the name pages give `<Icon>`: Lucide's drawing of each (the
 * `lucide` package: an icon is a list of SVG elements). They reach the browser as one sprite,
 * `icons.svg` beside this file, made from this list by `npm run icons`; pages name a shape in
 * it instead of carrying its drawing, so an icon is one short tag in the HTML.
 */
export const ICON_SHAPES = {
  "calendar-clock": CalendarClock,
  "calendar-days": CalendarDays,
  "calendar-plus": CalendarPlus,
  car: Car,
  check: Check,
  "chevron-down": ChevronDown,
  "circle-alert": CircleAlert,
  "circle-check": CircleCheck,
  "cloud-lightning": CloudLightning,
  eye: Eye,
  "eye-off": EyeOff,
  flame: Flame,
  hammer: Hammer,
  mail: Mail,
  "map-pin": MapPin,
  megaphone: Megaphone,
  menu: Menu,
  phone: Phone,
  skull: Skull,
  tent: Tent,
  ticket: Ticket,
  "triangle-alert": TriangleAlert,
  x: X,
} satisfies Record<string, IconNode>;

export type IconName = keyof typeof ICON_SHAPES;

const escapeAttribute = (value: string | number) =>
  String(value).replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");

/**
 * The sprite: one `<symbol>` per icon, drawn the way Lucide draws (no fill, round strokes in
 * the text's colour). The stroke's width is left to the page's `<svg>`, which the drawing
 * inherits through `<use>`.
 */
export function iconSprite(): string {
  const symbols = Object.entries(ICON_SHAPES).map(([name, shapes]) => {
    const drawing = (shapes as IconNode)
      .map(
        ([tag, attributes]) =>
          `<${tag} ${Object.entries(attributes)
            .filter(([, value]) => value !== undefined)
            .map(([key, value]) => `${key}="${escapeAttribute(value!)}"`)
            .join(" ")}/>`,
      )
      .join("");
    return `<symbol id="${name}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-linecap="round" stroke-linejoin="round">${drawing}</symbol>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join("\n")}\n</svg>\n`;
}
