import { Alert } from "./Alert";
import { FieldError } from "./Field";

/**
 * A field's error and a form's error message, as Field and Alert draw them, for a page the
 * server alone draws to copy when its script finds a mistake before sending the form
 * (web/forms/errors-in-page.ts). The markup stays in the components.
 */
export function FormErrorTemplates() {
  return (
    <>
      <template data-template="field-error">
        <FieldError id="">{""}</FieldError>
      </template>
      <template data-template="alert-error">
        <Alert kind="error">{""}</Alert>
      </template>
    </>
  );
}
