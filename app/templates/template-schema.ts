import { z } from "zod";
import { MESSAGE_TYPES } from "~/db/schema/campaign-steps";
import { isOneLine, SUBJECT_CONTROL_CHARS } from "~/lib/header-text";

/** SPEC §5: name and content are required. */
export const TEMPLATE_REQUIRED = "Please fill in template name and content";
export const TEMPLATE_NOT_FOUND = "Template not found";
/** SPEC §8 toast title for a failed create. */
export const TEMPLATE_CREATE_ERROR = "Error creating template";

const required = z
  .string({ required_error: TEMPLATE_REQUIRED, invalid_type_error: TEMPLATE_REQUIRED })
  .trim()
  .min(1, TEMPLATE_REQUIRED);

export const createTemplateSchema = z.object({
  name: required.pipe(z.string().max(200, "Template name is too long (maximum 200 characters)")),
  content: required.pipe(z.string().max(10_000, "Template content is too long (maximum 10,000 characters)")),
  type: z.enum(MESSAGE_TYPES, { errorMap: () => ({ message: "type must be sms or email" }) }).default("sms"),
  subject: z
    .string()
    .trim()
    .max(500, "Subject is too long (maximum 500 characters)")
    .nullish()
    .refine(isOneLine, SUBJECT_CONTROL_CHARS),
});

export const updateTemplateSchema = createTemplateSchema.partial();

export type CreateTemplateInput = z.infer<typeof createTemplateSchema>;
export type UpdateTemplateInput = z.infer<typeof updateTemplateSchema>;

/** The query parameter the no-JS TemplatePicker sends by GET; the page's loader pre-fills its form from it. */
export const TEMPLATE_PARAM = "template";
