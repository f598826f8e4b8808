import type { ReactNode } from "react";
import { Field } from "~/components/ui/Field";

/** A list row's place among the others, as every one of the club's list editors asks it. */
export function PlaceInOrder({ name, position }: { name: string; position: number | string }) {
  return (
    <Field
      label="Place in the order"
      name={name}
      type="number"
      inputMode="numeric"
      min={1}
      defaultValue={position}
      className="w-40"
    />
  );
}

/** A tick box with its words, 44 px tall: Retired, Required, Remove this question. */
export function TickBox({ name, checked, children }: { name: string; checked: boolean; children: ReactNode }) {
  return (
    <label className="flex min-h-11 items-center gap-2">
      <input type="checkbox" name={name} defaultChecked={checked} className="size-5" />
      {children}
    </label>
  );
}
