/**
 * How errors are written to the log. Database errors carry the values of the failed
 * statement (Drizzle's `params` and its "Failed query: ... params: ..." message, the
 * drivers' `parameters`/`params`, a unique violation's `detail` quoting the key), and
 * those values can be session tokens, reset tokens or a member's emergency contact.
 * So an error is logged from an allow-list of fields that never hold a statement's
 * values, and the parameter part of a message is cut out, on both drivers.
 */

/** Fields that say what went wrong without repeating what was being written. */
const SAFE_FIELDS = [
  "code",
  "errno",
  "syscall",
  "severity",
  "constraint",
  "table",
  "column",
  "schema",
  "dataType",
  "routine",
  "status",
  "statusCode",
  "responseCode",
  "command",
] as const;

const MAX_CAUSES = 5;

/** A message without the statement's values: Drizzle appends them after "params:". */
export function withoutParameters(message: string): string {
  const at = message.indexOf("\nparams: ");
  return at === -1 ? message : `${message.slice(0, at)}\nparams: [not logged]`;
}

export type LoggedError = { type: string; message: string; stack?: string; cause?: LoggedError | string } & Record<
  string,
  unknown
>;

/** The pino serializer for `err`: an allow-listed copy of the error and its causes. */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) {
    if (error && typeof error === "object") return { type: "non-error object", message: "[not logged]" };
    return error;
  }
  const message = withoutParameters(error.message);
  const logged: LoggedError = { type: error.name || error.constructor?.name || "Error", message };
  if (error.stack)
    logged.stack = error.stack.includes(error.message)
      ? error.stack.replace(error.message, () => message)
      : withoutParameters(error.stack);
  const fields = error as unknown as Record<string, unknown>;
  for (const field of SAFE_FIELDS) {
    const value = fields[field];
    if (typeof value === "string" || typeof value === "number") logged[field] = value;
  }
  // Better Auth's API errors say which rule refused in `body.code`.
  const body = fields.body as { code?: unknown } | undefined;
  if (body && typeof body.code === "string") logged.bodyCode = body.code;
  if (error.cause !== undefined && depth < MAX_CAUSES)
    logged.cause = serializeError(error.cause, depth + 1) as LoggedError;
  return logged;
}
