import { Form } from "react-router";
import { ListRows, PlaceInOrder, TickBox } from "../ListRowControls";
import { Field } from "~/components/ui/Field";
import { SubmitButton } from "~/components/ui/SubmitButton";
import type { CabinRow, CabinsAnswer } from "./cabins-page.server";

/** The cabins as one form: a fieldset a cabin, then a blank one to add a cabin. */
export function CabinsForm({
  rows,
  version,
  answer,
  busy,
}: {
  rows: CabinRow[];
  version: number;
  answer?: CabinsAnswer;
  busy: boolean;
}) {
  const errors = answer?.errors ?? {};
  return (
    <Form method="post" noValidate className="flex flex-col gap-4" aria-labelledby="cabins-form-heading">
      <h2 id="cabins-form-heading" className="text-2xl">
        Cabins
      </h2>
      <p className="text-dust">
        Rename a cabin, give it another place in the order, or tick “Retired” to stop offering it: attendance already
        recorded keeps the cabin’s name as it was. The last row adds a cabin. Nothing changes on the site until you
        save; every saved version stays in the history below.
      </p>
      <ListRows
        rows={rows}
        blank={{ id: "", name: "", position: String(rows.length + 1), retired: false }}
        version={version}
        noun="cabin"
        keyOf={(row) => row.id}
        isRetired={(row) => row.retired}
        className="panel flex flex-wrap items-end gap-4"
        fields={(row, n, isNew) => (
          <>
            <input type="hidden" name={`id-${n}`} value={row.id} />
            <Field
              label="Name"
              name={`name-${n}`}
              maxLength={60}
              defaultValue={row.name}
              error={errors[`name-${n}`]}
              className="min-w-0 flex-1 basis-56"
            />
            <PlaceInOrder name={`position-${n}`} position={row.position} />
            {isNew ? null : (
              <TickBox name={`retired-${n}`} checked={row.retired}>
                Retired
              </TickBox>
            )}
          </>
        )}
      />
      <div className="flex flex-wrap gap-3">
        <SubmitButton name="intent" value="save" className="btn btn-primary" busy={busy}>
          Save the cabins
        </SubmitButton>
      </div>
    </Form>
  );
}
