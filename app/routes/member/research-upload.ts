/**
 * The research form's upload when JavaScript runs: the page's own action, whose data a
 * resource route answers in JSON, so the page can show the upload's progress.
 */
export { action } from "./research";
