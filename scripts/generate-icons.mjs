#!/usr/bin/env node
// Writes the installable app's icons (issue 27 item 7, decision 049) to public/icons/: a sun on the brand colour, as
// real PNGs (zlib, no image library). `node scripts/generate-icons.mjs` rewrites them; they are committed.
// The maskable icon keeps the sun inside the middle 60 % (the safe zone is the 80 % circle) and fills the edges.
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

// Theme tokens (app/tailwind.css): --color-brand-500 and --color-ink.
const BRAND = [0xf5, 0x9e, 0x0b];
const INK = [0x0f, 0x17, 0x2a];
const WHITE = [0xff, 0xff, 0xff];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** size × size RGBA; `pixel(x, y)` → [r, g, b, a] with coordinates in 0…1. */
function png(size, pixel) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4); // filter byte 0
    for (let x = 0; x < size; x++) row.set(pixel((x + 0.5) / size, (y + 0.5) / size), 1 + x * 4);
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A sun: a disc and eight rays, scaled by `scale` around the centre; `rounded` gives the "any" icon its corners. */
function sun(scale, rounded) {
  return (x, y) => {
    const dx = x - 0.5;
    const dy = y - 0.5;
    if (rounded) {
      const r = 0.2; // corner radius
      const cx = Math.min(Math.max(x, r), 1 - r);
      const cy = Math.min(Math.max(y, r), 1 - r);
      if (Math.hypot(x - cx, y - cy) > r) return [0, 0, 0, 0];
    }
    const d = Math.hypot(dx, dy) / scale;
    if (d < 0.17) return [...INK, 255];
    if (d < 0.21) return [...WHITE, 255];
    const angle = Math.atan2(dy, dx);
    const ray = Math.abs(Math.sin(angle * 4)) < 0.2;
    if (ray && d > 0.26 && d < 0.38) return [...INK, 255];
    return [...BRAND, 255];
  };
}

const out = new URL("../public/icons/", import.meta.url);
writeFileSync(new URL("icon-192.png", out), png(192, sun(1, true)));
writeFileSync(new URL("icon-512.png", out), png(512, sun(1, true)));
writeFileSync(new URL("icon-maskable-512.png", out), png(512, sun(0.75, false)));
console.log("wrote public/icons/icon-192.png, icon-512.png, icon-maskable-512.png");
