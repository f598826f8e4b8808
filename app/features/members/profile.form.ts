import { isValidPhoneNumber, parsePhoneNumberWithError } from "libphonenumber-js";
import { z } from "zod";
import { answer } from "./application.form";
import { BackstoryForm } from "./character.form";

export const INVALID_PHONE = "Please enter a phone number we can call, e.g. (860) 555-0142 or +44 20 7946 0958";

export const CONTACT_NAME_MAX = 100;
export const CONTACT_PHONE_MAX = 40;

/** Numbers without a country code are read as US numbers: the club plays in New England. */
export const EmergencyContactForm = z.object({
  name: answer(CONTACT_NAME_MAX),
  phone: answer(CONTACT_PHONE_MAX)
    .refine((value) => isValidPhoneNumber(value, "US"), INVALID_PHONE)
    .transform((value) => parsePhoneNumberWithError(value, "US").formatInternational()),
});

/** The profile page's two forms, told apart by the button that sent them (`intent`). */
export const ProfileForms = z.discriminatedUnion("intent", [
  EmergencyContactForm.extend({ intent: z.literal("contact") }),
  BackstoryForm.extend({ intent: z.literal("backstory") }),
]);
