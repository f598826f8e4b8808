/** The account pages' messages, word for word as members see them (docs/product.md#forms-and-accounts). One source for pages and tests. */
export const MESSAGES = {
  required: "This field is required",
  requiredAll: "Please fill in all required fields",
  passwordRequirements: "Please meet all password requirements",
  passwordsDontMatch: "Passwords do not match",
  captcha: "Please complete the CAPTCHA",
  signupThrottle: "Please wait a few seconds before trying again",
  accountCreated: "Account created successfully! You can now sign in.",
  profileFailed: "Failed to create profile. Please try again.",
  authDefault: "An error occurred",
  resetEmailSent: "Password reset email sent! Check your inbox.",
  resetEmailFailed: "Failed to send reset email",
  resetFailed: "Password reset failed",
  passwordUpdated: "Password updated! Redirecting to login...",
  validatingToken: "Validating reset token...",
} as const;

/** The site's own messages, which the old site did not have. */
export const SITE_MESSAGES = {
  invalidEmail: "Please enter a valid email address",
  emailTaken: "An account with this email already exists. Sign in, or reset your password if you have forgotten it.",
  tooManySignIns: "Too many sign-in attempts. Please wait a few minutes and try again.",
  tooManyResets: "Too many reset requests from this connection. Please wait a while and try again.",
  resetLinkInvalid: "This reset link is invalid, has expired or has already been used.",
  invitationReplaced:
    "A newer invitation was sent to you, so this link no longer works. Please use the link in the most recent invitation email.",
  welcomeHeading: "Welcome to Hopewell: choose your password",
  accountReady: "Your account is ready. Taking you to sign in...",
  passwordChanged: "Password updated.",
  wrongCurrentPassword: "Your current password is not correct",
  tooManyPasswordChanges: "Too many attempts. Please wait a few minutes and try again.",
  passwordChangeFailed: "Your password could not be changed. Please try again.",
  crossSite: "This form was sent from another site and has been refused.",
  /** A post to a page that needs a session proven by a second factor, from a session that is not (web/two-factor-gate.server.ts). */
  secondFactorRequired: "This page needs a sign-in with a second factor.",
} as const;
