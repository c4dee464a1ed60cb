import {
  DEFAULT_PLAN_RULES,
  PAID_PLAN_IDS,
  IMAGE_MODEL_RULES,
  IMAGE_UPSCALER,
  PLAN_IDS,
  PLAN_IMAGE_MODELS,
  PLAN_OFFERS,
  PLAN_TITLES,
  VIDEO_MODEL_TITLES,
  VIDEO_QUALITY_RESOLUTIONS,
  videoOptionsForPlan,
  type PlanId,
} from '@mediagen/shared';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { PricingPage } from '@/app/routes/pricing';
import { ServicesPage } from '@/app/routes/services';
import { CheckoutReturn } from '@/features/billing/components/CheckoutReturn';

/**
 * Issue 37, "One source of plan facts": every plan fact Pricing and Services show is read back from the
 * rendered page and compared with the rules the API enforces (plan-rules.ts, image-models.ts,
 * video-models.ts) and the offer (plan-facts.ts). A line on a plan card no reader below understands
 * fails too, so a new claim cannot be added without saying how it is checked.
 */

const RULES = DEFAULT_PLAN_RULES;
const TITLE_TO_PLAN = Object.fromEntries(PLAN_IDS.map((plan) => [PLAN_TITLES[plan], plan])) as Record<string, PlanId>;
const plansNamed = (text: string): PlanId[] =>
  text.split(/, | and /).map((title) => {
    const plan = TITLE_TO_PLAN[title.trim()];
    expect(plan, `"${title}" is a plan`).toBeDefined();
    return plan!;
  });
const sorted = <T,>(items: readonly T[]) => [...items].sort();

/** "Stable Diffusion 3.5 Large" and its siblings are one family on the page. */
const family = (title: string) => title.replace(/^(Stable Diffusion 3\.5) .*/, '$1');

/** Each reader checks the line it recognises against the rules, and says whether it recognised it. */
type LineReader = (line: string, plan: PlanId) => boolean;

const READERS: Record<string, LineReader> = {
  allowance(line, plan) {
    const match =
      /^(Unlimited \(fair use: up to )?(\d+) images?, (\d+) videos? and (\d+) speech (every (\d+) days|a day)\)?$/.exec(
        line,
      );
    if (match === null) return false;
    const rules = RULES[plan];
    expect({ image: Number(match[2]), video: Number(match[3]), speech: Number(match[4]) }).toEqual(rules.allowance);
    expect(match[6] === undefined ? 1 : Number(match[6])).toBe(rules.periodDays);
    expect(match[1] !== undefined, `${plan} sold as unlimited`).toBe(PLAN_OFFERS[plan].unlimited);
    return true;
  },
  images(line, plan) {
    const match = /^(One image|Up to (\d+) images) per request, up to (\d+)×(\d+)$/.exec(line);
    if (match === null) return false;
    const { limits } = RULES[plan];
    expect(match[2] === undefined ? 1 : Number(match[2])).toBe(limits.maxImagesPerRequest);
    expect([Number(match[3]), Number(match[4])]).toEqual([limits.maxImageSide, limits.maxImageSide]);
    return true;
  },
  models(line, plan) {
    const match = /^Made with (.+)$/.exec(line);
    if (match === null) return false;
    const named = match[1]!.split(/, | or /);
    const allowed = PLAN_IMAGE_MODELS[plan];
    expect(sorted(named)).toEqual(sorted([...new Set(allowed.models.map((m) => family(IMAGE_MODEL_RULES[m].title)))]));
    expect(named[0], `${plan}'s default model first`).toBe(family(IMAGE_MODEL_RULES[allowed.defaultModel].title));
    return true;
  },
  fourK(line, plan) {
    const match = /^4K images \((\d+)×(\d+), upscaled\)$/.exec(line);
    if (match === null) return false;
    expect(PLAN_IMAGE_MODELS[plan].resolutions).toContain('4k');
    expect(Number(match[1])).toBe(1024 * IMAGE_UPSCALER.factor);
    return true;
  },
  controls(line, plan) {
    if (!/^Aspect ratios/.test(line)) return false;
    const models = PLAN_IMAGE_MODELS[plan].models.map((model) => IMAGE_MODEL_RULES[model]);
    expect(line.includes('style presets')).toBe(models.some((model) => model.stylePreset));
    expect(line.includes('negative prompts')).toBe(models.some((model) => model.negativePrompt));
    return true;
  },
  video(line, plan) {
    const match = /^Video: (.+)$/.exec(line);
    if (match === null) return false;
    const shown = match[1]!.split('; ').flatMap((phrase) => {
      const [, title, pictures] = /^(.+?) at (.+)$/.exec(phrase)!;
      const model = Object.entries(VIDEO_MODEL_TITLES).find(([, name]) => name === title)?.[0];
      expect(model, `a video model called ${title}`).toBeDefined();
      return [...pictures!.matchAll(/(\d+P)( HD)? \(([\d or]+) s\)/g)].map(([, resolution, hd, seconds]) => {
        const isHd = VIDEO_QUALITY_RESOLUTIONS[model as keyof typeof VIDEO_QUALITY_RESOLUTIONS].hd === resolution;
        expect(hd !== undefined, `${resolution} said to be HD only when it is`).toBe(isHd);
        return `${model} ${resolution} ${seconds!.split(' or ').join(',')}`;
      });
    });
    const offered = videoOptionsForPlan(plan).options.map(
      (option) => `${option.model} ${option.resolution} ${option.durations.join(',')}`,
    );
    expect(sorted(shown)).toEqual(sorted(offered));
    return true;
  },
  queue(line, plan) {
    const match = /^(Standard queue|Priority processing|Dedicated processing): runs (before|after) (.+)$/.exec(line);
    if (match === null) return false;
    const mine = RULES[plan].queuePriority;
    const others = PLAN_IDS.filter((other) =>
      match[2] === 'before' ? RULES[other].queuePriority > mine : RULES[other].queuePriority < mine,
    );
    expect(sorted(plansNamed(match[3]!))).toEqual(sorted(others));
    const first = PLAN_IDS.every((other) => RULES[other].queuePriority >= mine);
    const last = PLAN_IDS.every((other) => RULES[other].queuePriority <= mine);
    expect(match[1]).toBe(last ? 'Standard queue' : first ? 'Dedicated processing' : 'Priority processing');
    return true;
  },
  watermark(line, plan) {
    if (line !== 'Watermarked output' && line !== 'No watermark') return false;
    expect(line === 'Watermarked output').toBe(RULES[plan].watermark);
    return true;
  },
  support(line, plan) {
    if (!/support/i.test(line)) return false;
    expect(line).toBe(PLAN_OFFERS[plan].support);
    return true;
  },
  agreements(line, plan) {
    return PLAN_OFFERS[plan].agreements.includes(line);
  },
};

function renderPricing() {
  render(
    <MemoryRouter initialEntries={['/pricing']}>
      <PricingPage />
    </MemoryRouter>,
  );
  return userEvent.setup();
}

const card = (plan: PlanId) => screen.getByRole('article', { name: PLAN_TITLES[plan] });
const lines = (plan: PlanId) =>
  within(card(plan))
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');

describe('Pricing states the plans as the rules make them', () => {
  it.each(PLAN_IDS)("reads every line of %s's card back against the rules", (plan) => {
    renderPricing();
    const read = new Set<string>();
    for (const line of lines(plan)) {
      const readers = Object.entries(READERS).filter(([, reader]) => reader(line, plan));
      expect(
        readers.map(([name]) => name),
        `one reader for "${line}" on ${plan}`,
      ).toHaveLength(1);
      read.add(readers[0]![0]);
    }
    // Every plan states these; a plan with 4K says so.
    for (const fact of ['allowance', 'images', 'models', 'controls', 'video', 'queue', 'watermark', 'support']) {
      expect(read, `${plan} states its ${fact}`).toContain(fact);
    }
    expect(read.has('fourK')).toBe(PLAN_IMAGE_MODELS[plan].resolutions.includes('4k'));
  });

  it('shows the prices of the offer, monthly and yearly', async () => {
    const user = renderPricing();
    for (const plan of PLAN_IDS) {
      expect(screen.getByTestId(`price-${plan}`).textContent).toBe(`$${PLAN_OFFERS[plan].price.monthly}/month`);
    }
    await user.click(screen.getByRole('button', { name: 'Yearly (Save 20%)' }));
    for (const plan of PLAN_IDS) {
      const yearly = PLAN_OFFERS[plan].price.yearly;
      expect(screen.getByTestId(`price-${plan}`).textContent).toBe(yearly === null ? 'Free' : `$${yearly}/year`);
    }
  });

  it("states Free's allowance as the spec's business constants", () => {
    renderPricing();
    expect(lines('free')[0]).toBe('1 image, 1 video and 2 speech every 30 days');
    expect(lines('enterprise')[0]).toBe('Unlimited (fair use: up to 200 images, 40 videos and 400 speech a day)');
  });

  it('says which plans are watermarked as the rules do', () => {
    renderPricing();
    const note = screen.getByRole('region', { name: 'About watermarks' }).textContent ?? '';
    const marked = /made on the (.+?) plans? carries/.exec(note)?.[1];
    const clean = /removed\. (.+?) output has no watermark/.exec(note)?.[1];
    expect(plansNamed(marked!)).toEqual(PLAN_IDS.filter((plan) => RULES[plan].watermark));
    expect(plansNamed(clean!)).toEqual(PLAN_IDS.filter((plan) => !RULES[plan].watermark));
  });

  it("gives each card the offer's button, or one naming its own plan", () => {
    renderPricing();
    for (const plan of PLAN_IDS) {
      const [button] = within(card(plan)).getAllByRole('button');
      expect([PLAN_OFFERS[plan].buttonText, `Upgrade to ${PLAN_TITLES[plan]}`]).toContain(button!.textContent);
    }
    for (const link of within(card('enterprise'))
      .getAllByRole('link')
      .filter((a) => !/support/i.test(a.textContent!))) {
      expect(link.textContent).toBe(PLAN_OFFERS.enterprise.buttonText);
    }
  });

  it("makes none of the old pricing table's promises the product does not keep", () => {
    renderPricing();
    const page = document.body.textContent ?? '';
    for (const stale of [/generations per month/i, /basic resolution/i, /standard speed/i, /email support/i, /24\/7/]) {
      expect(page).not.toMatch(stale);
    }
  });
});

describe('The return from checkout states the new plan as the rules make it', () => {
  it.each(PAID_PLAN_IDS)('reads every line of the confirmed %s plan back against the rules', (plan) => {
    const update = {
      plan,
      tokens: RULES[plan].allowance,
      allowance: RULES[plan].allowance,
      resetsAt: '2027-01-01T00:00:00Z',
    };
    render(
      <MemoryRouter>
        <CheckoutReturn outcome="success" signedIn liveUpdate={update} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: `You're on ${PLAN_TITLES[plan]}` })).toBeDefined();
    const read = within(screen.getByRole('list', { name: `${PLAN_TITLES[plan]} plan` }))
      .getAllByRole('listitem')
      .map((item) => {
        const readers = Object.entries(READERS).filter(([, reader]) => reader(item.textContent ?? '', plan));
        expect(readers, `one reader for "${item.textContent}"`).toHaveLength(1);
        return readers[0]![0];
      });
    expect(read).toEqual(['allowance', 'watermark']);
  });
});

describe('Services states the plans as the rules make them', () => {
  function renderServices() {
    render(
      <MemoryRouter initialEntries={['/services']}>
        <ServicesPage />
      </MemoryRouter>,
    );
  }
  const tool = (title: string) =>
    within(screen.getByRole('heading', { name: title }).closest('li')!)
      .getAllByRole('listitem')
      .map((item) => item.textContent ?? '');
  const capability = (title: string) =>
    screen.getByRole('heading', { name: title }).parentElement?.querySelector('p')?.textContent ?? '';

  it("gives each plan's largest image and 4K as the rules do", () => {
    renderServices();
    const sizes = tool('AI Image Generation').find((line) => line.startsWith('Up to '))!;
    const shown = [...sizes.matchAll(/(\d+)×(\d+)( and 4K)? on (\w+)/g)];
    expect(shown.map((match) => TITLE_TO_PLAN[match[4]!])).toEqual([...PLAN_IDS]);
    for (const [, side, , fourK, title] of shown) {
      const plan = TITLE_TO_PLAN[title!]!;
      expect(Number(side)).toBe(RULES[plan].limits.maxImageSide);
      expect(fourK !== undefined).toBe(PLAN_IMAGE_MODELS[plan].resolutions.includes('4k'));
    }
  });

  it("gives each plan's video resolutions as its default model renders them", () => {
    renderServices();
    const line = tool('AI Video Creation')[1]!;
    const seen: PlanId[] = [];
    for (const group of line.split('; ')) {
      const [, resolutions, plans] = /^(.+) on (.+)$/.exec(group)!;
      for (const plan of plansNamed(plans!)) {
        seen.push(plan);
        const { defaultModel, options } = videoOptionsForPlan(plan);
        const own = options.filter((option) => option.model === defaultModel);
        const hd = VIDEO_QUALITY_RESOLUTIONS[defaultModel].hd;
        expect(resolutions).toBe(
          own.map((option) => (option.resolution === hd ? `${option.resolution} HD` : option.resolution)).join(' and '),
        );
      }
    }
    expect(sorted(seen)).toEqual(sorted(PLAN_IDS));
  });

  it('gives the queue order, image sets, HD video and 4K by plan as the rules do', () => {
    renderServices();
    const speed = capability('Fast Processing');
    const order = /plan order, (\w+) first, then (\w+), then (\w+)/.exec(speed)!.slice(1);
    expect(order.map((title) => TITLE_TO_PLAN[title])).toEqual(
      [...PLAN_IDS].sort((a, b) => RULES[a].queuePriority - RULES[b].queuePriority),
    );
    expect(speed).toMatch(/videos in minutes/);

    const precision = capability('Precision Control');
    const sets = [...precision.matchAll(/(\d+)(?: images a request)? on (\w+)/g)];
    expect(sets.map(([, , title]) => TITLE_TO_PLAN[title!])).toEqual(
      PLAN_IDS.filter((plan) => RULES[plan].limits.maxImagesPerRequest > 1),
    );
    for (const [, count, title] of sets) {
      expect(Number(count)).toBe(RULES[TITLE_TO_PLAN[title!]!].limits.maxImagesPerRequest);
    }
    const firstWith = (has: (plan: PlanId) => boolean) => PLAN_TITLES[PLAN_IDS.find(has)!];
    expect(precision).toContain(
      `HD video from ${firstWith((plan) => videoOptionsForPlan(plan).options.some((o) => o.qualities.includes('hd')))}`,
    );
    expect(precision).toContain(
      `4K images on ${firstWith((plan) => PLAN_IMAGE_MODELS[plan].resolutions.includes('4k'))}`,
    );
  });

  it('claims no size range the plans do not make', () => {
    renderServices();
    expect(document.body.textContent).not.toMatch(/Sizes from 512|HD and real-footage/);
  });
});
