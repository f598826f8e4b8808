/**
 * The password requirements, in the order the checklist shows them. Kept apart from the forms'
 * schemas so the sign-in page's first script can draw the checklist without Zod.
 */
import { PASSWORD_MIN_LENGTH, PASSWORD_SPECIAL_CHARACTERS } from "~/game/rules";

export const PASSWORD_RULES = [
  {
    id: "length",
    label: `At least ${PASSWORD_MIN_LENGTH} characters`,
    test: (p: string) => p.length >= PASSWORD_MIN_LENGTH,
  },
  { id: "upper", label: "One uppercase letter", test: (p: string) => /[A-Z]/.test(p) },
  { id: "lower", label: "One lowercase letter", test: (p: string) => /[a-z]/.test(p) },
  { id: "digit", label: "One number", test: (p: string) => /\d/.test(p) },
  {
    id: "special",
    label: `One special character (${PASSWORD_SPECIAL_CHARACTERS})`,
    test: (p: string) => [...PASSWORD_SPECIAL_CHARACTERS].some((c) => p.includes(c)),
  },
] as const;

export function meetsPasswordRules(password: string): boolean {
  return PASSWORD_RULES.every((rule) => rule.test(password));
}
