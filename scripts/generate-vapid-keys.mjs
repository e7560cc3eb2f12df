#!/usr/bin/env node
// `npm run vapid:generate [-- mailto:you@example.com]`: a new VAPID key pair for Web Push (RFC 8292, decision 049),
// printed as the three settings the Worker reads. Keep the private key secret (`wrangler secret put
// VAPID_PRIVATE_KEY`); changing the pair later unsubscribes every browser (they subscribed to the old public key).
import { webcrypto } from "node:crypto";

const subject = process.argv[2] ?? "mailto:admin@example.com";
if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(subject)) {
  console.error("The subject must be mailto:<address> or an https: URL (the push services' contact for you).");
  process.exit(1);
}
const pair = await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
const publicKey = Buffer.from(await webcrypto.subtle.exportKey("raw", pair.publicKey)).toString("base64url");
const { d } = await webcrypto.subtle.exportKey("jwk", pair.privateKey);
console.log(`VAPID_PUBLIC_KEY=${publicKey}`);
console.log(`VAPID_PRIVATE_KEY=${d}`);
console.log(`VAPID_SUBJECT=${subject}`);
