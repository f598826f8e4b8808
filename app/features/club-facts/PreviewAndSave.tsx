import { SubmitButton } from "~/components/ui/SubmitButton";

/** The foot of a club-fact form: look first without saving, or save as a new version. */
export function PreviewAndSave({ busy, save }: { busy: boolean; save: string }) {
  return (
    <div className="flex flex-wrap gap-3">
      <SubmitButton name="intent" value="preview" className="btn btn-secondary" busy={busy}>
        Preview
      </SubmitButton>
      <SubmitButton name="intent" value="save" className="btn btn-primary" busy={busy}>
        {save}
      </SubmitButton>
    </div>
  );
}
