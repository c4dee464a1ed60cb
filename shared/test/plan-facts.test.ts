import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PLAN_RULES,
  PLAN_FACTS,
  PLAN_IDS,
  PLANS,
  allowanceInWords,
  exceedsPlan,
  imageSideInWords,
  imagesPerRequestInWords,
  planFacts,
  planTableRows,
  welcomeMessage,
  type GenerationRequest,
} from '../src';

const README = resolve(import.meta.dirname, '../../README.md');

/** The cells of the README's plan table: the rows after the marker comment, trimmed. */
function readmePlanTable(): string[][] {
  const lines = readFileSync(README, 'utf8').split('\n');
  const marker = lines.findIndex((line) => line.includes('The plan table is written from shared/src/plan-facts.ts'));
  expect(marker, 'the README marks its plan table').toBeGreaterThan(-1);
  const table: string[] = [];
  for (const line of lines.slice(marker + 1)) {
    if (line.trim().startsWith('|')) table.push(line.trim());
    else if (table.length > 0) break;
  }
  return table
    .filter((row) => !/^\|[\s|-]+\|$/.test(row))
    .map((row) =>
      row
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
}

describe('plan facts', () => {
  it("are the README's plan table, cell for cell", () => {
    const expected = planTableRows();
    const markdown = [expected[0]!, expected[0]!.map(() => '---'), ...expected.slice(1)]
      .map((row) => `  | ${row.join(' | ')} |`)
      .join('\n');
    expect(readmePlanTable(), `README.md's plan table should be (then run pnpm format):\n${markdown}\n`).toEqual(
      expected,
    );
  });

  it('state the allowances the rules enforce, Free the spec\'s and Enterprise "unlimited" with its real caps', () => {
    expect(allowanceInWords(PLAN_FACTS.free)).toBe('1 image, 1 video and 2 speech every 30 days');
    expect(allowanceInWords(PLAN_FACTS.pro)).toBe('250 images, 50 videos and 200 speech every 30 days');
    expect(allowanceInWords(PLAN_FACTS.enterprise)).toBe(
      'Unlimited (fair use: up to 200 images, 40 videos and 400 speech a day)',
    );
    for (const plan of PLAN_IDS) expect(PLAN_FACTS[plan].allowance).toEqual(DEFAULT_PLAN_RULES[plan].allowance);
  });

  it("follow an operator's allowances", () => {
    const plans = {
      ...DEFAULT_PLAN_RULES,
      pro: { ...DEFAULT_PLAN_RULES.pro, allowance: { image: 9, video: 1, speech: 3 } },
    };
    expect(allowanceInWords(planFacts('pro', plans))).toBe('9 images, 1 video and 3 speech every 30 days');
  });

  it('give every plan a card whose first line is its allowance, one support line and the watermark the rules say', () => {
    for (const plan of PLANS) {
      const facts = PLAN_FACTS[plan.id];
      expect(plan.features[0]).toBe(allowanceInWords(facts));
      expect([...plan.features, ...(plan.limitations ?? [])].filter((line) => /support/i.test(line))).toEqual([
        facts.support,
      ]);
      const lines = [...plan.features, ...(plan.limitations ?? [])];
      expect(lines.includes('Watermarked output')).toBe(DEFAULT_PLAN_RULES[plan.id].watermark);
    }
  });

  it("word the API's 403 image refusals as the pages word the same limits", () => {
    const image = (fields: Partial<GenerationRequest & { kind: 'image' }>) =>
      ({ kind: 'image', prompt: 'a cat', ...fields }) as GenerationRequest;
    const free = DEFAULT_PLAN_RULES.free;
    expect(exceedsPlan(image({ width: 2048, height: 2048 }), 'free', free)).toContain(
      `up to ${imageSideInWords(free.limits.maxImageSide)} pixels`,
    );
    expect(PLANS[0]!.features).toContain(`One image per request, up to ${imageSideInWords(free.limits.maxImageSide)}`);
    expect(exceedsPlan(image({ samples: 5 }), 'pro', DEFAULT_PLAN_RULES.pro)).toBe(
      `The Pro plan makes ${imagesPerRequestInWords(4)}. Upgrade your plan for more.`,
    );
  });

  it('welcome a creator with their balance, their plan and how often it renews', () => {
    expect(welcomeMessage({ image: 1, video: 1, speech: 2 }, 'free')).toBe(
      'Welcome! You have 1 image, 1 video and 2 speech tokens remaining on the Free plan, which renews them every 30 days.',
    );
    expect(welcomeMessage({ image: 200, video: 39, speech: 400 }, 'enterprise')).toBe(
      'Welcome! You have 200 image, 39 video and 400 speech tokens remaining on the Enterprise plan, which renews them every day.',
    );
  });
});
