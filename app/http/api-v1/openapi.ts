import type { z } from "zod";
import { zodToJsonSchema } from "zod-to-json-schema";
import type { Operation } from "./operation";
import { API_SCOPES } from "./operation";
import { OPERATIONS } from "./operations";
import { errorSchema } from "./schemas";
import { WEBHOOK_EVENTS, type WebhookEventType } from "~/db/schema";
import { webhookEnvelope } from "~/webhooks/webhook-events";

type Json = Record<string, unknown>;

/** zod → JSON Schema 2020-12-compatible (what OpenAPI 3.1 uses), inline (no internal $refs to resolve). */
export function jsonSchema(schema: z.ZodTypeAny): Json {
  const { $schema: _, ...rest } = zodToJsonSchema(schema, {
    $refStrategy: "none",
    effectStrategy: "input",
    // zod strips unknown keys (it does not refuse them): so the document must not promise additionalProperties: false.
    removeAdditionalStrategy: "strict",
  }) as Json;
  return rest;
}

const ERROR_TEXT: Record<number, string> = {
  400: "The request was refused (the message says why)",
  401: "No API key or session",
  403: "The key lacks the scope, or the caller's role may not do this",
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

function parameters(op: Operation) {
  const out: Json[] = [];
  for (const [where, schema] of [
    ["path", op.params],
    ["query", op.query],
  ] as const) {
    if (!schema) continue;
    const js = jsonSchema(schema) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, prop] of Object.entries(js.properties ?? {})) {
      const { description, ...rest } = prop;
      out.push({
        name,
        in: where,
        required: where === "path" || (js.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  return out;
}

const WEBHOOK_HEADERS = [
  {
    name: "Helio-Signature",
    description:
      '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the subscription\'s secret>`: verify it and refuse a ' +
      "timestamp more than five minutes away",
  },
  { name: "Helio-Event-Id", description: "The event id (the body's `id`); the same event replayed keeps it" },
];

/**
 * OpenAPI 3.1 `webhooks`: what Helio POSTs to a subscription's URL for each event (decision 036), from the schemas
 * the webhook tests hold every delivery to (app/webhooks/webhook-events.ts).
 */
function webhooks(schemas: Record<string, Json>) {
  return Object.fromEntries(
    WEBHOOK_EVENTS.map((type: WebhookEventType) => {
      const name = `${type
        .split(".")
        .map((w) => cap(w).replace(/_(.)/g, (_, c: string) => c.toUpperCase()))
        .join("")}Event`;
      schemas[name] = jsonSchema(webhookEnvelope(type));
      return [
        type,
        {
          post: {
            operationId: `webhook${name}`,
            tags: ["Webhooks"],
            summary: `${type} (sent to your subscription)`,
            parameters: WEBHOOK_HEADERS.map((h) => ({
              ...h,
              in: "header",
              required: true,
              schema: { type: "string" },
            })),
            requestBody: { required: true, content: { "application/json": { schema: ref(name) } } },
            responses: {
              "2XX": {
                description: "Received. Anything else (or no answer in 10 s) is retried after 1, 5, 30, 120, 480 min",
              },
            },
          },
        },
      ];
    }),
  );
}

/** The OpenAPI 3.1 document of /api/v1, from the operation registry (decision 038). */
export function openApiDocument(ops: readonly Operation[] = OPERATIONS, serverUrl = "/") {
  const schemas: Record<string, Json> = { Error: jsonSchema(errorSchema) };
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of ops) {
    const errors: Record<string, Json> = {};
    const statuses: [number, string][] = [
      ...(op.body || op.query ? ([[400, ERROR_TEXT[400]]] as [number, string][]) : []),
      [401, ERROR_TEXT[401]],
      [403, ERROR_TEXT[403]],
      ...Object.entries(op.errors ?? {}).map(([s, d]) => [Number(s), d] as [number, string]),
    ];
    for (const [status, description] of statuses)
      errors[status] = { description, content: { "application/json": { schema: ref("Error") } } };
    let requestBody: Json | undefined;
    if (op.body) {
      schemas[`${cap(op.operationId)}Request`] = jsonSchema(op.body);
      requestBody = {
        required: true,
        content: {
          "application/json": {
            schema: ref(`${cap(op.operationId)}Request`),
            ...(op.example?.body !== undefined ? { example: op.example.body } : {}),
          },
        },
      };
    }
    let success: Json = { description: op.success.description };
    if (op.success.schema) {
      schemas[`${cap(op.operationId)}Response`] = jsonSchema(op.success.schema);
      success = { ...success, content: { "application/json": { schema: ref(`${cap(op.operationId)}Response`) } } };
    }
    (paths[op.path] ??= {})[op.method] = {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      "x-scope": op.scope,
      security: [{ apiKey: [op.scope] }, { session: [] }],
      parameters: parameters(op),
      ...(requestBody ? { requestBody } : {}),
      responses: { [op.success.status]: success, ...errors },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Helio API",
      version: "1.0.0",
      description:
        "The public contract of Helio. Authenticate with `Authorization: Bearer <API key>` (Settings → API keys); " +
        `each key carries scopes (${API_SCOPES.join(", ")}) and each operation names the one it needs. ` +
        "Within v1 changes are additive only (new operations, optional fields, new response fields).",
    },
    servers: [{ url: serverUrl }],
    tags: [...[...new Set(ops.map((o) => o.tag))].map((name) => ({ name })), { name: "Webhooks" }],
    paths,
    webhooks: webhooks(schemas),
    components: {
      schemas,
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: `An API key. Scopes: ${API_SCOPES.join(", ")}; the operation's \`x-scope\` is the one it needs.`,
        },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "__Host-helio_session",
          description: "The browser app's session (helio_session over plain http)",
        },
      },
    },
  };
}
export type OpenApiDocument = ReturnType<typeof openApiDocument>;
