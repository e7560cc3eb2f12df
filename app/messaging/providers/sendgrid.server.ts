// SendGrid v3 Mail Send over plain fetch: one JSON POST per email.
import { parseRetryAfter, providerClient, providerError, providerMessage } from "./http-errors.server";
import type { HttpTransport, ProviderJson } from "./http-errors.server";
import type { EmailProvider, ProviderError } from "./provider";

export const SENDGRID_API_BASE = "https://api.sendgrid.com";

export type SendGridConfig = HttpTransport & {
  apiKey: string;
  from: string;
  fromName?: string;
};

/** Seconds to wait after a 429/5xx: Retry-After when sent, else SendGrid's X-RateLimit-Reset (epoch seconds). */
function retryAfterSeconds(res: Response): number | null {
  const retryAfter = parseRetryAfter(res.headers.get("Retry-After"));
  if (retryAfter !== null) return retryAfter;
  const reset = Number(res.headers.get("X-RateLimit-Reset"));
  if (!res.headers.get("X-RateLimit-Reset") || !Number.isFinite(reset)) return null;
  return Math.max(0, Math.ceil(reset - Date.now() / 1000));
}

function errorFromResponse(res: Response, json: ProviderJson): ProviderError {
  const first = Array.isArray(json?.errors) ? json.errors[0] : null;
  const text = (typeof first?.message === "string" && first.message) || res.statusText || "Request failed.";
  return providerError(
    res,
    providerMessage(`SendGrid ${res.status}`, text),
    `http_${res.status}`,
    retryAfterSeconds(res),
  );
}

/**
 * A header value on one line: CR, LF, NUL and the other C0 controls (and DEL) become spaces. The forms refuse them
 * already (subject-schema); this is the last line of defence against header injection for text that got in some
 * other way (a stored template, an alert's sender name).
 */
export function headerSafe(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
}

/** UTF-8 text → base64 (btoa takes one byte per character). */
function base64Utf8(text: string) {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function createSendGridEmail(config: SendGridConfig): EmailProvider {
  const from = config.from.trim();
  if (!config.apiKey || !from) throw new Error("SendGrid needs an API key and a From address.");
  const api = providerClient(config, SENDGRID_API_BASE, "SendGrid", errorFromResponse);
  const url = `${api.base}/v3/mail/send`;
  const sender = config.fromName ? { email: from, name: config.fromName } : { email: from };

  return {
    name: "sendgrid",
    sender: from,

    async send(msg) {
      // SendGrid refuses empty content blocks and wants text/plain before text/html.
      const content = [
        ...(msg.text ? [{ type: "text/plain", value: msg.text }] : []),
        ...(msg.html ? [{ type: "text/html", value: msg.html }] : []),
      ];
      const payload = {
        personalizations: [{ to: [{ email: msg.to }] }],
        from: sender,
        subject: headerSafe(msg.subject),
        content,
        // RFC 8058 one-click unsubscribe (required by Gmail/Yahoo for bulk senders); staff mail has none.
        ...(msg.unsubscribeUrl
          ? {
              headers: {
                "List-Unsubscribe": `<${headerSafe(msg.unsubscribeUrl)}>`,
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
              },
            }
          : {}),
        // Echoed in SendGrid's event webhook; values must be strings.
        custom_args: { message_id: String(msg.messageId) },
        // SendGrid takes attachments base64-encoded (UTF-8 text underneath).
        ...(msg.attachments?.length
          ? {
              attachments: msg.attachments.map((a) => ({
                content: base64Utf8(a.content),
                type: a.contentType,
                filename: a.filename,
                disposition: "attachment",
              })),
            }
          : {}),
      };
      const { res } = await api.call(url, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${config.apiKey}`,
          "Content-Type": "application/json",
          Accept: "application/json",
        },
        body: JSON.stringify(payload),
      });
      // SendGrid always sends X-Message-Id with a 202; should it not, the email was still accepted — record it
      // under a local id rather than fail (custom_args.message_id still ties events to the row).
      const sid = res.headers.get("X-Message-Id") || `sg-${crypto.randomUUID()}`;
      return { sid, status: "sent" };
    },
  };
}
