import { openApiDocument } from "~/http/api-v1/openapi";

/** GET /api/v1/openapi.json — public on purpose (the contract holds no secrets); cacheable for an hour. */
export const loader = () => Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=3600" } });
