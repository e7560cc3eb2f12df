// The offline Idea Generator answers the request it was given (issue 24): kind, count, length, tone, audience,
// topic, and follow-ups that transform the previous answer. Pure: no network.
import { describe, expect, it } from "vitest";
import { makesPromise } from "./draft-rules";
import { composeChatAnswer } from "./offline-chat";
import type { ChatTurn } from "./prompts/chat";

const ask = (message: string, history: ChatTurn[] = [], context = "") =>
  composeChatAnswer(message, context, history.length, history).response;
/** The numbered items of an answer (an item runs until the next number or a blank line after a text). */
const items = (answer: string) =>
  [...answer.matchAll(/^(\d+)\. (.*(?:\n {3}.*)*)/gm)].map((m) => m[2].replace(/\n {3}/g, "\n"));
const SMS_TOKEN = /\{\{(\w+)\}\}/g;
const DOCUMENTED = new Set(["firstName", "salesRep", "appointmentDate", "appointmentTime"]);

function wellFormed(answer: string) {
  expect(answer).not.toMatch(/30\s?%|tax credit/i);
  // The chat drops any sentence the draft rules call a promise: the composer never writes one.
  expect(makesPromise(answer)).toBe(false);
  expect(answer).not.toMatch(/\[[A-Za-z ]+\]|\{[^{}]*\}(?!\})|undefined|null|NaN/);
  for (const [, name] of answer.matchAll(SMS_TOKEN)) expect(DOCUMENTED.has(name), name).toBe(true);
}

describe("offline Idea Generator: requests", () => {
  const table: Array<{
    ask: string;
    kind: "sms" | "email" | "subject";
    count: number;
    max?: number;
    optOut?: boolean;
    match?: RegExp;
  }> = [
    {
      ask: "Give me 5 subject lines for a follow-up after a quote",
      kind: "subject",
      count: 5,
      match: /quote|proposal/i,
    },
    {
      ask: "Write three texts for renters about battery storage",
      kind: "sms",
      count: 3,
      max: 160,
      optOut: true,
      match: /batter/i,
    },
    {
      ask: "Write 4 casual texts asking for referrals, under 120 characters",
      kind: "sms",
      count: 4,
      max: 120,
      optOut: true,
      match: /Hey/,
    },
    {
      ask: "Draft 2 urgent texts for no-shows",
      kind: "sms",
      count: 2,
      max: 160,
      optOut: false,
      match: /missed|better time|15 minutes/i,
    },
    {
      ask: "Write an SMS appointment reminder",
      kind: "sms",
      count: 1,
      max: 160,
      optOut: false,
      match: /\{\{appointmentDate\}\}/,
    },
    { ask: "Write 3 texts to re-engage cold leads", kind: "sms", count: 3, max: 160, optOut: true },
    {
      ask: "Write a professional email about financing for commercial property owners",
      kind: "email",
      count: 1,
      match: /business[\s\S]*incentives where available/i,
    },
    {
      ask: "Write two friendly emails about net metering for seniors",
      kind: "email",
      count: 2,
      match: /net metering/i,
    },
  ];

  it.each(table)("$ask", (row) => {
    const answer = ask(row.ask);
    wellFormed(answer);
    if (row.match) expect(answer).toMatch(row.match);
    if (row.kind === "email") {
      expect(answer.match(/^(?:\d+\. )?Subject: \S.+$/gm)).toHaveLength(row.count);
      return;
    }
    const list = row.count > 1 || /\d|three|two/.test(row.ask) ? items(answer) : [answer.split("\n\n")[1]];
    expect(list).toHaveLength(row.count);
    expect(new Set(list).size).toBe(row.count);
    for (const text of list) {
      if (row.max) expect(text.length, text).toBeLessThanOrEqual(row.max);
      if (row.optOut !== undefined) expect(/Reply STOP to opt out\.$/.test(text), text).toBe(row.optOut);
    }
  });

  it("different requests get different answers, and the same request the same answer", () => {
    const answers = table.map((r) => ask(r.ask));
    for (const q of [
      "Write 3 appointment reminder texts",
      "Give me 10 subject lines for new leads",
      "Create a 4-step follow-up sequence",
    ])
      wellFormed(ask(q));
    // The chat refuses answers over 8,000 characters.
    expect(ask("Write 10 professional emails about battery storage for commercial owners").length).toBeLessThan(8000);
    expect(new Set(answers).size).toBe(table.length);
    expect(ask(table[1].ask)).toBe(answers[1]);
  });

  it("tone words change the copy", () => {
    const tones = ["friendly", "professional", "casual", "urgent"].map((t) =>
      items(ask(`Write 3 ${t} texts about financing`)),
    );
    for (let i = 0; i < tones.length; i++)
      for (let j = i + 1; j < tones.length; j++) expect(tones[i]).not.toEqual(tones[j]);
    expect(tones[2].join(" ")).toMatch(/Hey/);
    expect(tones[3].join(" ")).toMatch(/heads-up|time-sensitive|today|this week/i);
  });

  it("audience changes the copy", () => {
    expect(ask("Write 2 texts about battery storage for commercial owners")).toMatch(/business/);
    expect(ask("Write an email introduction for renters")).toMatch(/community solar|landlord|renters/);
  });

  it("never promises the federal tax credit, even when asked about it", () => {
    for (const q of [
      "Write 3 texts about the 30% tax credit",
      "Write an email about the federal tax credit for homeowners",
      "How do I explain the tax credit simply?",
    ]) {
      const answer = ask(q);
      expect(answer).not.toMatch(/30\s?%|tax credit/i);
    }
    expect(ask("Write 3 texts about the 30% tax credit")).toMatch(/incentives where available/i);
  });
});

describe("offline Idea Generator: sequences", () => {
  it("a 4-step follow-up campaign: four numbered steps in day order, opt-out on the first text only", () => {
    const answer = ask("Create a 4-step follow-up campaign for leads who went quiet");
    wellFormed(answer);
    const steps = items(answer);
    expect(steps).toHaveLength(4);
    const days = steps.map((s) => Number(/^Day (\d+)/.exec(s)?.[1]));
    expect(days).toEqual([...days].sort((x, y) => x - y));
    expect(new Set(days).size).toBe(4);
    expect(steps.filter((s) => /Reply STOP to opt out/.test(s))).toHaveLength(1);
    expect(steps[0]).toMatch(/Reply STOP to opt out\."$/);
    expect(steps.some((s) => /email\. Subject: \S/.test(s))).toBe(true);
    for (const s of steps.filter((x) => /text/.test(x))) expect(/"(.*)"$/.exec(s)![1].length).toBeLessThanOrEqual(160);
    expect(items(ask("Build a 3-step battery storage drip for seniors"))).toHaveLength(3);
  });
});

describe("offline Idea Generator: follow-ups transform the previous answer", () => {
  const first = "Write three texts for renters about battery storage";
  const history = (...turns: string[]): ChatTurn[] =>
    turns.flatMap((t) => [
      { role: "user" as const, content: t },
      { role: "assistant" as const, content: ask(t) },
    ]);

  it("make them shorter: the same texts, each no longer and shorter overall", () => {
    const before = items(ask(first));
    const after = items(ask("make them shorter", history(first)));
    expect(after).toHaveLength(before.length);
    after.forEach((t, i) => {
      expect(t.length).toBeLessThanOrEqual(before[i].length);
      expect(t).toMatch(/batter|outage/i);
    });
    expect(after.join("").length).toBeLessThan(before.join("").length);
  });

  it("more casual: same topic and count, casual wording", () => {
    const after = items(ask("more casual", history(first)));
    expect(after).toHaveLength(3);
    expect(after.join(" ")).toMatch(/Hey/);
    expect(after.join(" ")).toMatch(/batter|outage/i);
    expect(after).not.toEqual(items(ask(first)));
  });

  it("another one: one new text on the same topic, not one already shown", () => {
    const shown = items(ask(first));
    const after = items(ask("another one", history(first)));
    expect(after).toHaveLength(1);
    expect(shown).not.toContain(after[0]);
    expect(after[0]).toMatch(/batter|solar/i);
    expect(after[0].length).toBeLessThanOrEqual(160);
  });

  it("follow-ups chain: shorter, then casual, keeps both", () => {
    const after = items(ask("more casual", history(first, "make them shorter")));
    const shorter = items(ask("make them shorter", history(first)));
    expect(after).toHaveLength(3);
    expect(after.join(" ")).toMatch(/Hey/);
    expect(after.join("").length).toBeLessThanOrEqual(shorter.join("").length + 10);
  });

  it("subject lines: another 3 gives 3 new ones", () => {
    const q = "Give me 5 subject lines for a follow-up after a quote";
    const after = items(ask("another 3", history(q)));
    expect(after).toHaveLength(3);
    for (const s of after) expect(items(ask(q))).not.toContain(s);
  });
});
