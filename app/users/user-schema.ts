import { z } from "zod";
import { MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT } from "~/auth/password-rules.js";
import { ROLES } from "~/db/schema/users";
import { normalizePhone } from "~/contacts/phone";

const name = (label: string) =>
  z
    .string({ required_error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} is too long`);
const email = z
  .string({ required_error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254)
  .email("Enter a valid email");
const phone = z
  .string()
  .trim()
  .max(32)
  .optional()
  .transform((v) => v || null);

export const SENDER_FORMAT =
  "Enter the sending number in E.164 form (+15551234567) or a Messaging Service SID (MG followed by 32 hex digits)";

/**
 * A rep's sending number (decision 045): a phone number (US forms normalised to E.164) or a Messaging Service SID;
 * "" clears it (null).
 */
export const sendingNumber = z
  .string({ invalid_type_error: SENDER_FORMAT })
  .trim()
  .max(40, SENDER_FORMAT)
  .transform((v, ctx) => {
    if (!v) return null;
    if (/^MG[0-9a-f]{32}$/i.test(v)) return "MG" + v.slice(2).toLowerCase();
    const number = normalizePhone(v);
    if (/^\+[1-9]\d{6,14}$/.test(number)) return number;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: SENDER_FORMAT });
    return z.NEVER;
  });

export const newUserSchema = z.object({
  email,
  firstName: name("First name"),
  lastName: name("Last name"),
  role: z.enum(ROLES, { errorMap: () => ({ message: "Role must be user or superuser" }) }).default("user"),
  phone,
});

export const userChangeSchema = z
  .object({
    role: z.enum(ROLES, { errorMap: () => ({ message: "Role must be user or superuser" }) }).optional(),
    isActive: z.boolean({ invalid_type_error: "isActive must be true or false" }).optional(),
    // Deactivation of a user who owns contacts names who takes them over (decision 044).
    handOffTo: z.number({ invalid_type_error: "handOffTo must be a user id" }).int().positive().optional(),
    availableForLeads: z.boolean({ invalid_type_error: "availableForLeads must be true or false" }).optional(),
    // The rep's own sending number (decision 045); null or "" clears it.
    smsSender: sendingNumber.nullable().optional(),
    resetPassword: z.boolean({ invalid_type_error: "resetPassword must be true or false" }).optional(),
    resetTwoFactor: z.boolean({ invalid_type_error: "resetTwoFactor must be true or false" }).optional(),
  })
  .strict()
  .refine(
    (v) =>
      v.role !== undefined ||
      v.isActive !== undefined ||
      v.availableForLeads !== undefined ||
      v.smsSender !== undefined ||
      v.resetPassword ||
      v.resetTwoFactor,
    {
      message: "Nothing to change: send role, isActive, availableForLeads, smsSender, resetPassword or resetTwoFactor",
    },
  );

export const profileSchema = z.object({ firstName: name("First name"), lastName: name("Last name"), email, phone });

export const passwordSchema = z
  .object({
    currentPassword: z
      .string({ required_error: "Current password is required" })
      .min(1, "Current password is required")
      .max(200),
    newPassword: z
      .string({ required_error: "New password is required" })
      .min(MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT)
      .max(200),
    confirmPassword: z.string({ required_error: "Confirm the new password" }).max(200),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: "The passwords do not match",
    path: ["confirmPassword"],
  });
