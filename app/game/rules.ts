/** Timings and limits (docs/product.md#timings-and-limits), in the units the code uses. */

/** Countdown on a submission's success panel before the redirect. */
export const SUBMISSION_REDIRECT_SECONDS = 3;
/** Delay before the reset-password page moves on after a successful reset. */
export const RESET_PASSWORD_REDIRECT_MS = 2_000;
/** How long 'Changes saved successfully!' and similar notices stay visible. */
export const SAVE_NOTICE_MS = 3_000;

export const PASSWORD_MIN_LENGTH = 8;
/** The special characters a password must include at least one of. */
export const PASSWORD_SPECIAL_CHARACTERS = "!@#$%^&*";

export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_EXTENSIONS = ["jpg", "jpeg", "png", "pdf"] as const;
export const UPLOAD_MIME_TYPES = ["image/jpeg", "image/png", "application/pdf"] as const;

export const USER_SEARCH_MIN_CHARS = 2;
export const USER_SEARCH_MAX_RESULTS = 10;
export const USER_SEARCH_DEBOUNCE_MS = 300;

/** Chat webhooks accept at most this many characters per post; longer content is split. */
export const WEBHOOK_MESSAGE_LIMIT = 2000;
export const WEBHOOK_CHUNK_DELAY_MS = 100;

/** Rows of the text areas on each form. */
export const TEXTAREA_ROWS = {
  application: 3,
  backstory: 10,
  pel: 5,
  letter: 10,
} as const;
