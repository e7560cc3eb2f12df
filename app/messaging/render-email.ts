const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/**
 * The email body as text and HTML, with the CAN-SPAM footer: the sender's physical address and an
 * unsubscribe link that works without login. User text is escaped, never trusted as HTML.
 */
export function renderEmail(content: string, opts: { unsubscribeUrl: string; companyAddress: string }) {
  const text = `${content}\n\n--\n${opts.companyAddress}\nUnsubscribe: ${opts.unsubscribeUrl}\n`;
  const html =
    `<div style="font-family:sans-serif;font-size:15px;line-height:1.5">${escapeHtml(content).replace(/\r?\n/g, "<br>")}</div>` +
    `<hr style="margin-top:24px;border:none;border-top:1px solid #ddd">` +
    `<p style="font-family:sans-serif;font-size:12px;color:#666">${escapeHtml(opts.companyAddress)}<br>` +
    `<a href="${escapeHtml(opts.unsubscribeUrl)}">Unsubscribe</a></p>`;
  return { text, html };
}

/**
 * Staff mail (alerts, escalations): mail to the team about its own work, not marketing — no unsubscribe link (one
 * click on it would silence every later alert) and no postal footer.
 */
export function renderStaffEmail(content: string) {
  return {
    text: `${content}\n`,
    html: `<div style="font-family:sans-serif;font-size:15px;line-height:1.5">${escapeHtml(content).replace(/\r?\n/g, "<br>")}</div>`,
  };
}
