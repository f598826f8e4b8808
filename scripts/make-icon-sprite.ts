/**
 * Writes app/components/icons.svg, the sprite every page's icons point into, from the list in
 * app/components/icon-shapes.ts. Run it (`npm run icons`) after adding an icon to that list;
 * a unit test fails while the sprite and the list differ.
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { iconSprite } from "../app/components/icon-shapes";

const target = fileURLToPath(new URL("../app/components/icons.svg", import.meta.url));
fs.writeFileSync(target, iconSprite());
console.log(`Wrote ${target}`);
