// A lead vendor (EnergySage, Modernize, SolarReviews…) posting leads to Helio's webhook the way those services do:
// plain Node HTTP on loopback, no app code. A vendor's lead carries the homeowner's fields under its own names
// (snake_case, "First Name"…) and the TCPA consent evidence its form captured: the consent text shown, the seller
// named, the page URL, the homeowner's IP and the time. Used by the e2e test and scripts.
import http from "node:http";
import https from "node:https";

/** One lead as EnergySage-style vendors send it; `overrides` replaces any field. */
export function vendorLead(overrides = {}) {
  return {
    first_name: "Maya",
    last_name: "Homeowner",
    phone: "(512) 555-0143",
    email: "maya@example.com",
    address: "12 Sunny Ln",
    city: "Austin",
    state: "TX",
    zip: "78701",
    lead_source: "EnergySage",
    tcpa_consent_text:
      "By clicking Get Quotes, I agree that Acme Solar may call and text me at the number above, including by autodialer. Consent is not a condition of purchase.",
    seller_name: "Acme Solar",
    page_url: "https://www.energysage.example/quotes/acme",
    ip_address: "203.0.113.24",
    consented_at: new Date().toISOString(),
    ...overrides,
  };
}

/**
 * Posts `body` to `<baseUrl>/api/v1/leads` with the vendor's API key. `form: true` sends one lead form-encoded
 * (as no-code tools do); `idempotencyKey` sets the header a vendor's retries carry.
 * @returns {Promise<{ status: number, headers: import("node:http").IncomingHttpHeaders, json: any }>}
 */
export function postLeads(baseUrl, apiKey, body, { form = false, idempotencyKey, query = "" } = {}) {
  const url = new URL(`/api/v1/leads${query}`, baseUrl);
  const payload = form ? new URLSearchParams(body).toString() : JSON.stringify(body);
  const headers = {
    Authorization: `Bearer ${apiKey}`,
    "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json",
    "Content-Length": Buffer.byteLength(payload),
    "User-Agent": "FakeLeadVendor/1.0",
  };
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, { method: "POST", headers }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json = null;
        try {
          json = JSON.parse(text);
        } catch {
          json = { raw: text };
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
      });
    });
    req.on("error", reject);
    req.end(payload);
  });
}
