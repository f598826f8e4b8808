import pino from "pino";

/**
 * The process's logger: JSON in production, readable in a terminal during development.
 * Never log secrets, passwords, tokens or emergency contacts; the redact list is a
 * safety net for the common field names, not a licence to log whole objects.
 */
const level = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info");
const pretty = process.env.NODE_ENV === "development" && process.stdout.isTTY;

export const logger = pino({
  level,
  redact: {
    paths: ["password", "*.password", "token", "*.token", "headers.cookie", "emergencyContact", "*.emergencyContact"],
    censor: "[redacted]",
  },
  ...(pretty ? { transport: { target: "pino-pretty" } } : {}),
});
