// Deterministic benchmark recipients: distinct, sendable US numbers and the text each one must receive.
// bench/bare-consumer.js repeats phoneFor() (a Worker cannot import this file); keep the two in step.

/** Exchanges (NXX) that assessPhone() accepts: no N11, no 555 (its 01XX lines are fictional). */
const EXCHANGES = [];
for (let x = 234; x <= 999 && EXCHANGES.length < 100; x++) if (x % 100 !== 11 && x !== 555) EXCHANGES.push(x);

export const MAX_RECIPIENTS = EXCHANGES.length * 10_000;

/** +1 303 NXX XXXX for i = 0 … MAX_RECIPIENTS-1 (303: a Denver area code, not toll-free or premium). */
export function phoneFor(i) {
  return `+1303${EXCHANGES[Math.floor(i / 10_000)]}${String(i % 10_000).padStart(4, "0")}`;
}

const FIRST = ["Ava", "Ben", "Cleo", "Dev", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonah", "Kira", "Luis"];
export const firstNameFor = (i) => `${FIRST[i % FIRST.length]}${i}`;

export const TEMPLATE = "Hi {{firstName}}, quick solar question";
export const renderedFor = (i) => `Hi ${firstNameFor(i)}, quick solar question`;

/** IANA zones around the world; one whose local time is 09:00–19:00 now keeps quiet hours out of the run. */
const ZONES = [
  "Pacific/Honolulu",
  "America/Anchorage",
  "America/Los_Angeles",
  "America/Denver",
  "America/Chicago",
  "America/New_York",
  "America/Sao_Paulo",
  "Atlantic/Azores",
  "Europe/London",
  "Europe/Berlin",
  "Europe/Athens",
  "Asia/Dubai",
  "Asia/Karachi",
  "Asia/Kolkata",
  "Asia/Dhaka",
  "Asia/Bangkok",
  "Asia/Shanghai",
  "Asia/Tokyo",
  "Australia/Sydney",
  "Pacific/Noumea",
  "Pacific/Auckland",
];

export function daytimeZone(now = new Date()) {
  const hourIn = (timeZone) =>
    Number(new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", hourCycle: "h23" }).format(now)) % 24;
  // Prefer the zone closest to 14:00 so a long run cannot drift out of the window.
  const ranked = ZONES.map((z) => ({ zone: z, hour: hourIn(z) })).filter((z) => z.hour >= 9 && z.hour < 19);
  ranked.sort((a, b) => Math.abs(a.hour - 14) - Math.abs(b.hour - 14));
  if (!ranked.length) throw new Error("no candidate time zone is between 09:00 and 19:00 right now");
  const local = new Intl.DateTimeFormat("en-GB", {
    timeZone: ranked[0].zone,
    hour: "2-digit",
    minute: "2-digit",
  }).format(now);
  return { zone: ranked[0].zone, local };
}
