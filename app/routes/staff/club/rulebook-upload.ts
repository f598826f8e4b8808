/**
 * The rulebook page's upload when JavaScript runs (RulebookUploadForm): the page's own action,
 * whose data a resource route answers in JSON, so the page can show the upload's progress.
 */
export { action } from "./rulebook";
