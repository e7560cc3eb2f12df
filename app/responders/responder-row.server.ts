import type { autoResponders } from "~/db/schema";
import type { ResponderInput } from "./responder-schema";

export type Responder = typeof autoResponders.$inferSelect;

/** The stored columns of a validated responder (create and update write the same ones). */
export function responderColumns(r: ResponderInput) {
  return {
    name: r.name,
    keyword: r.keyword || r.keywords[0] || "",
    category: r.category,
    triggerType: r.triggerType,
    keywords: r.keywords,
    isActive: r.isActive,
    conditions: r.conditions,
    aiSettings: r.aiSettings,
    responses: r.responses,
    escalation: r.escalation,
    scheduling: r.scheduling,
    analytics: r.analytics,
  };
}

/** The stored responder as the SPEC's object (the shape the form and PUT merge into). */
export function responderObject(r: Responder): Record<string, unknown> {
  return {
    name: r.name,
    keyword: r.keyword,
    category: r.category,
    triggerType: r.triggerType,
    keywords: r.keywords,
    isActive: r.isActive,
    conditions: r.conditions ?? {},
    aiSettings: r.aiSettings ?? {},
    responses: r.responses ?? {},
    escalation: r.escalation ?? {},
    scheduling: r.scheduling ?? {},
    analytics: r.analytics ?? {},
  };
}
