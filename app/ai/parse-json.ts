import type { z } from "zod";
import { MalformedAiOutput } from "./provider";

/**
 * Models wrap JSON in prose or ``` fences now and then: take the outermost {...} and validate it with the task's
 * schema. Anything else is malformed, so the chain moves on.
 */
export function parseModelJson<T>(text: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>): T {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) throw new MalformedAiOutput("no JSON object in the answer");
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    throw new MalformedAiOutput("answer is not valid JSON");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new MalformedAiOutput(`answer does not match the schema: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}
