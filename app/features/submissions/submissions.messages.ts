/*
 * What the submission forms say, and their limits: kept apart from the forms' schemas
 * (submissions.form.ts) so the pages that show them send no Zod to the browser.
 */

/** Messages of the submission forms (docs/product.md#member-forms). */
export const SUBMISSION_MESSAGES = {
  selectEvent: "Please select an event",
  addItem: "Please add at least one item to your order",
  fillAllFields: "Please fill in all fields",
  pelFailed: "Failed to submit PEL. Please try again.",
  orderFailed: "Failed to submit order. Please try again.",
  letterFailed: "Failed to submit letter. Please try again.",
  loadFailed: "Failed to load profile data",
  quantity: "Quantities must be whole numbers from 0 to 9,999",
} as const;

/** What an order is told about an item it cannot have, named as the list names it. */
export const ORDER_ITEM_MESSAGES = {
  notOnList: "That item is not on the merchant's list.",
  retired: (item: string) => `${item} is no longer sold. Please take it off your order.`,
  notAtEvent: (item: string, event: string) =>
    `${item} is not sold at ${event}. Please take it off your order or choose another event.`,
} as const;

export const RESEARCH_MESSAGES = {
  fillAll: "Please fill in all fields and upload a file",
  fileType: "Please upload only JPG, JPEG, PNG or PDF files",
  fileSize: "File size must be less than 5MB",
  failed: "Failed to submit research. Please try again.",
} as const;

/** What a form drawn on a page too old to send again is answered with. */
export const FORM_EXPIRED = "This form has expired. Please reload the page and try again.";
