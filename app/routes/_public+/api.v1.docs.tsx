import type { MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { openApiDocument } from "~/http/api-v1/openapi";
import { Badge } from "~/components/ui/badge";
import { Card, PageHeader } from "~/components/ui/card";

export const meta: MetaFunction = () => [{ title: "API v1 — Helio" }];

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; required?: string[] };
type Op = {
  operationId: string;
  summary: string;
  description?: string;
  "x-scope": string;
  parameters: { name: string; in: string; required: boolean; description?: string }[];
  requestBody?: { content: { "application/json": { schema: { $ref: string }; example?: unknown } } };
  responses: Record<string, { description: string }>;
};

/**
 * GET /api/v1/docs — the OpenAPI document as a page, rendered on the server (public like openapi.json, no
 * scripts needed). The loader sends only what the page shows: paths, fields and examples.
 */
export function loader() {
  const doc = openApiDocument();
  const schemas = doc.components.schemas as Record<string, Schema>;
  const fieldsIn = (s: Schema | undefined) =>
    Object.entries(s?.properties ?? {}).map(([field, p]) => ({
      field,
      type: [p.type ?? "any"].flat().join(" | ") + (p.items?.type ? ` of ${p.items.type}` : ""),
      required: (s?.required ?? []).includes(field),
    }));
  const bodyOf = (op: Pick<Op, "requestBody">) => {
    const name = op.requestBody?.content["application/json"].schema.$ref.split("/").pop();
    return name ? schemas[name] : undefined;
  };
  const fieldsOf = (op: Op) => fieldsIn(bodyOf(op));
  return {
    title: doc.info.title,
    version: doc.info.version,
    description: doc.info.description,
    operations: Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods as Record<string, Op>).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        id: op.operationId,
        summary: op.summary,
        description: op.description ?? null,
        scope: op["x-scope"],
        parameters: op.parameters.map((p) => ({ ...p, description: p.description ?? null })),
        fields: fieldsOf(op),
        example: op.requestBody?.content["application/json"].example ?? null,
        responses: Object.entries(op.responses).map(([status, r]) => ({ status, description: r.description })),
      })),
    ),
    // What Helio POSTs to a subscription (Settings → Webhooks): each event's `data` fields.
    webhooks: Object.entries(doc.webhooks).map(([type, item]) => ({
      type,
      fields: fieldsIn(bodyOf((item as { post: Pick<Op, "requestBody"> }).post)?.properties?.data),
    })),
  };
}

/** A schema's fields: name, JSON type and whether it is always there (`required` names that). */
function FieldList({
  fields,
  required,
}: {
  fields: { field: string; type: string; required: boolean }[];
  required: string;
}) {
  return (
    <ul className="text-sm">
      {fields.map((f) => (
        <li key={f.field}>
          <code>{f.field}</code> {f.type}
          {f.required ? `, ${required}` : ""}
        </li>
      ))}
    </ul>
  );
}

export default function ApiDocs() {
  const doc = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-3xl space-y-4 p-4">
      <PageHeader
        title={`${doc.title} v${doc.version}`}
        description={
          <>
            {doc.description} Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
          </>
        }
      />
      <nav aria-label="Operations">
        <ul className="list-disc pl-5 text-sm">
          {doc.operations.map((op) => (
            <li key={op.id}>
              <a href={`#${op.id}`}>{op.summary}</a>
            </li>
          ))}
        </ul>
      </nav>
      {doc.operations.map((op) => (
        <Card key={op.id} data-testid={`op-${op.id}`}>
          <h2 id={op.id} className="text-base font-semibold">
            {op.summary}
          </h2>
          <p className="mt-1 font-mono text-sm wrap-anywhere">
            <Badge>{op.method}</Badge> {op.path}
          </p>
          <p className="mt-1 text-sm">
            Scope: <code>{op.scope}</code>
          </p>
          {op.description ? <p className="mt-2 text-sm">{op.description}</p> : null}
          {op.parameters.length > 0 ? (
            <>
              <h3 className="mt-3 text-sm font-semibold">Parameters</h3>
              <ul className="text-sm">
                {op.parameters.map((p) => (
                  <li key={`${p.in}-${p.name}`}>
                    <code>{p.name}</code> ({p.in}
                    {p.required ? ", required" : ""}){p.description ? ` — ${p.description}` : ""}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {op.fields.length > 0 ? (
            <>
              <h3 className="mt-3 text-sm font-semibold">JSON body</h3>
              <FieldList fields={op.fields} required="required" />
            </>
          ) : null}
          {op.example !== null ? (
            <pre className="mt-2 overflow-x-auto rounded bg-canvas p-2 text-xs">
              {JSON.stringify(op.example, null, 2)}
            </pre>
          ) : null}
          <h3 className="mt-3 text-sm font-semibold">Responses</h3>
          <ul className="text-sm">
            {op.responses.map((r) => (
              <li key={r.status}>
                <code>{r.status}</code> {r.description}
              </li>
            ))}
          </ul>
        </Card>
      ))}
      <Card data-testid="webhooks">
        <h2 id="webhooks" className="text-base font-semibold">
          Webhooks
        </h2>
        <p className="mt-1 text-sm">
          Helio POSTs <code>{"{ id, type, created_at, data }"}</code> to each subscription for the events it chose,
          signed in <code>Helio-Signature</code> (<code>t=…,v1=</code> HMAC-SHA256 of <code>t.body</code> with the
          subscription&apos;s secret). Deduplicate on <code>id</code>; answer 2xx within 10 s or it is retried.
        </p>
        {doc.webhooks.map((w) => (
          <section key={w.type} aria-labelledby={`event-${w.type}`}>
            <h3 id={`event-${w.type}`} className="mt-3 font-mono text-sm font-semibold">
              {w.type}
            </h3>
            <FieldList fields={w.fields} required="always" />
          </section>
        ))}
      </Card>
    </main>
  );
}
