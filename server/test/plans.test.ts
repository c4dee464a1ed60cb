import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenerationLifecycle, markedCopyOf, queueName, type ArtifactStore } from '@mediagen/core';
import { DEFAULT_PLAN_RULES, type PlanId } from '@mediagen/shared';
import { bearer, createTestContext, type TestApp, type TestContext } from './support/app';
import { apiClient, imageRequest, speechRequest, videoRequest } from './support/requests';
import { createAdminUser, createTestUser, type TestUser } from './support/users';

/** Plans: limits at submit, operators setting a plan, priority, and the served file following the plan. */
let context: TestContext;
let server: TestApp;
let admin: TestUser;

beforeAll(async () => {
  context = await createTestContext();
  admin = await createAdminUser();
  server = await context.start();
});
afterAll(() => context.cleanup());

function setPlan(uid: string, body: unknown, as: TestUser = admin): Promise<Response> {
  return fetch(`${server.origin}/admin/api/users/${uid}/plan`, {
    method: 'PUT',
    headers: { ...bearer(as), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function moveTo(user: TestUser, plan: PlanId): Promise<void> {
  const response = await setPlan(user.uid, { plan });
  expect(response.status).toBe(200);
}

describe('limits by plan', () => {
  it('refuses what Free does not include, with a message, and charges nothing', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const refusals = [
      { ...imageRequest(), width: 1536, height: 1536 },
      { ...videoRequest(), quality: 'hd' },
      { ...videoRequest(), duration: 10 },
    ];
    for (const body of refusals) {
      const refused = await api.submit(body);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('PLAN_LIMIT');
      expect(refused.body.error.message).toMatch(/^The Free plan .+ Upgrade your plan for more\.$/);
    }
    expect((await api.submit({ ...imageRequest(), width: 1536, height: 1536 })).body.error.message).toBe(
      'The Free plan makes images up to 1024×1024 pixels. Upgrade your plan for more.',
    );
    const me = await api.me();
    expect(me.body).toMatchObject({ plan: 'free', tokens: { image: 1, video: 1, speech: 2 } });
  });

  it('takes a set of as many images as the plan makes, charged together: Enterprise up to 10, Free one', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    expect((await api.submit({ ...imageRequest(), samples: 2 })).body.error.code).toBe('PLAN_LIMIT');
    await moveTo(user, 'enterprise');
    expect((await api.submit({ ...imageRequest(), samples: 10 })).status).toBe(202);
    const allowance = DEFAULT_PLAN_RULES.enterprise.allowance;
    expect((await api.me()).body).toMatchObject({ tokens: { image: allowance.image - 10 } });
  });

  it('gives each plan its image models: Free asking for Ultra or 4K is refused and charged nothing', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const recordedModel = async (id: string) =>
      (
        await server.app.database.db
          .selectFrom('generations')
          .select('request')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).request as { model?: string };

    for (const body of [
      { ...imageRequest(), model: 'stable-image-ultra' },
      { ...imageRequest(), resolution: '4k' },
    ]) {
      const refused = await api.submit(body);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('PLAN_LIMIT');
    }
    expect((await api.submit({ ...imageRequest(), model: 'stable-image-ultra' })).body.error.message).toBe(
      'The Free plan does not include Stable Image Ultra. Upgrade your plan for more.',
    );
    expect((await api.me()).body).toMatchObject({ tokens: { image: 1 } });
    // Unnamed, Free's model is the v1 SDXL, as before models were.
    const free = await api.submit(imageRequest());
    expect(free.status).toBe(202);
    expect((await recordedModel(free.body.id)).model).toBe('sdxl-1.0');

    await moveTo(user, 'pro');
    const pro = await api.submit({ ...imageRequest(), aspectRatio: '16:9', negativePrompt: 'fog' });
    expect(pro.status).toBe(202);
    expect(await recordedModel(pro.body.id)).toMatchObject({
      model: 'stable-image-core',
      aspectRatio: '16:9',
      negativePrompt: 'fog',
    });
    expect((await api.submit({ ...imageRequest(), model: 'stable-image-ultra' })).status).toBe(403);
    // An option the model does not take is a 400, never dropped.
    const turbo = await api.submit({ ...imageRequest(), model: 'sd3.5-large-turbo', negativePrompt: 'fog' });
    expect(turbo.status).toBe(400);
    expect(turbo.body.error).toEqual({
      code: 'INVALID_REQUEST',
      message: 'negativePrompt: Stable Diffusion 3.5 Large Turbo does not take a negative prompt',
    });

    await moveTo(user, 'enterprise');
    const enterprise = await api.submit({ ...imageRequest(), resolution: '4k' });
    expect(enterprise.status).toBe(202);
    expect(await recordedModel(enterprise.body.id)).toMatchObject({ model: 'stable-image-ultra', resolution: '4k' });
  });

  it('a plan change applies to the next request and moves the balance, keeping what was spent', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    expect((await api.submit(imageRequest())).status).toBe(202); // Free's one image
    expect((await api.submit({ ...imageRequest(), width: 1536, height: 1536 })).status).toBe(403);

    const changed = await setPlan(user.uid, { plan: 'pro', reason: 'support ticket 42' });
    expect(changed.status).toBe(200);
    const pro = DEFAULT_PLAN_RULES.pro.allowance;
    expect(await changed.json()).toMatchObject({
      uid: user.uid,
      plan: 'pro',
      from: 'free',
      changed: true,
      allowance: pro,
      tokens: { image: pro.image - 1, video: pro.video, speech: pro.speech },
    });

    expect((await api.submit({ ...imageRequest(), width: 1536, height: 1536 })).status).toBe(202);
    expect((await api.submit({ ...videoRequest(), quality: 'hd' })).status).toBe(202);
    expect((await api.submit({ ...imageRequest(), width: 2048, height: 2048 })).body.error.message).toBe(
      'The Pro plan makes images up to 1536×1536 pixels. Upgrade your plan for more.',
    );
    expect((await api.me()).body).toMatchObject({
      plan: 'pro',
      allowance: pro,
      tokens: { image: pro.image - 2, video: pro.video - 1 },
    });

    // Back to Free: two images and a video spent this period, so nothing of either is left.
    await moveTo(user, 'free');
    expect((await api.me()).body).toMatchObject({ plan: 'free', tokens: { image: 0, video: 0, speech: 2 } });
  });

  it('Enterprise is a daily cap: it renews a day after its period began', async () => {
    const user = await createTestUser();
    await moveTo(user, 'enterprise');
    const me = (await apiClient(server.origin, user).me()).body as { resetsAt: string; allowance: unknown };
    expect(me.allowance).toEqual(DEFAULT_PLAN_RULES.enterprise.allowance);
    const untilReset = Date.parse(me.resetsAt) - Date.now();
    expect(untilReset).toBeGreaterThan(23 * 3600_000);
    expect(untilReset).toBeLessThanOrEqual(24 * 3600_000);
  });
});

describe('out of tokens, by plan', () => {
  it("tells a Pro creator their plan's tokens are used up, and an Enterprise one the day's fair-use cap, never 'free tokens'", async () => {
    // Allowances an operator set (PLAN_PRO_ALLOWANCE, PLAN_ENTERPRISE_DAILY_CAP), so a plan runs out at once.
    const small = await context.start({
      PLAN_PRO_ALLOWANCE: 'image:0,video:1,speech:1',
      PLAN_ENTERPRISE_DAILY_CAP: 'image:1,video:0,speech:1',
    });
    const move = async (user: TestUser, plan: PlanId) => {
      const response = await fetch(`${small.origin}/admin/api/users/${user.uid}/plan`, {
        method: 'PUT',
        headers: { ...bearer(admin), 'content-type': 'application/json' },
        body: JSON.stringify({ plan }),
      });
      expect(response.status).toBe(200);
    };
    const pro = await createTestUser();
    await move(pro, 'pro');
    const proRefusal = await apiClient(small.origin, pro).submit(imageRequest());
    expect(proRefusal.status).toBe(402);
    expect(proRefusal.body.error).toEqual({
      code: 'TOKENS_EXHAUSTED',
      message:
        "Your Pro plan's image tokens for this period are used up. They renew in 30 days. Upgrade your plan for more.",
    });

    const enterprise = await createTestUser();
    await move(enterprise, 'enterprise');
    const enterpriseRefusal = await apiClient(small.origin, enterprise).submit(videoRequest());
    expect(enterpriseRefusal.status).toBe(402);
    expect(enterpriseRefusal.body.error.message).toBe(
      "You have reached the Enterprise plan's fair-use cap of video tokens for the day. It renews in 24 hours.",
    );
  });
});

describe('the admin plan API', () => {
  it('is for administrators, and says what is wrong with a bad request', async () => {
    const member = await createTestUser();
    expect((await setPlan(member.uid, { plan: 'pro' }, member)).status).toBe(403);
    const anonymous = await fetch(`${server.origin}/admin/api/users/${member.uid}/plan`);
    expect(anonymous.status).toBe(401);
    const bad = await setPlan(member.uid, { plan: 'platinum' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(
      /plan must be one of free, pro, enterprise/,
    );
    const read = await fetch(`${server.origin}/admin/api/users/${member.uid}/plan`, { headers: bearer(admin) });
    expect(await read.json()).toMatchObject({ plan: 'free', changed: false });
  });

  it('refuses control characters in the reason and the uid with 400, changing nothing', async () => {
    const member = await createTestUser();
    const withNul = await setPlan(member.uid, { plan: 'pro', reason: 'support ticket\u0000' });
    expect(withNul.status).toBe(400);
    expect(await withNul.json()).toEqual({
      error: { code: 'INVALID_REQUEST', message: expect.stringContaining('must not contain control characters') },
    });
    const uid = await fetch(`${server.origin}/admin/api/users/${member.uid}%00/plan`, { headers: bearer(admin) });
    expect(uid.status).toBe(400);
    expect(((await uid.json()) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
    const read = await fetch(`${server.origin}/admin/api/users/${member.uid}/plan`, { headers: bearer(admin) });
    expect(await read.json()).toMatchObject({ plan: 'free' });
  });
});

describe('priority', () => {
  // No worker runs in this file: submitted jobs wait in their queues, where their order can be read.
  it("paid plans' jobs run first, and an upgrade moves a waiting job up", async () => {
    const [free, pro, enterprise] = await Promise.all([createTestUser(), createTestUser(), createTestUser()]);
    await moveTo(pro, 'pro');
    await moveTo(enterprise, 'enterprise');
    const ids: Record<string, string> = {};
    const places: number[] = [];
    for (const [name, user] of [
      ['free', free],
      ['pro', pro],
      ['enterprise', enterprise],
    ] as const) {
      const accepted = await apiClient(server.origin, user).submit(speechRequest(`from ${name}`));
      expect(accepted.status).toBe(202);
      ids[name] = accepted.body.id as string;
      places.push(accepted.body.queue.position as number);
    }
    // Each answer counts only the jobs that run before it: every plan's first job goes ahead of the free one.
    expect(places).toEqual([1, 1, 1]);
    const secondPro = await apiClient(server.origin, pro).submit(speechRequest('from pro, again'));
    expect(secondPro.body.queue).toMatchObject({ position: 3 });
    // A later read counts the place from the record, in the same order.
    const placeOf = async (user: typeof free, id: string) =>
      (await apiClient(server.origin, user).get(id)).body.queue.position as number;
    expect([
      await placeOf(enterprise, ids.enterprise!),
      await placeOf(pro, ids.pro!),
      await placeOf(pro, secondPro.body.id as string),
      await placeOf(free, ids.free!),
    ]).toEqual([1, 2, 3, 4]);
    const queue = new Queue(queueName('speech'), { connection: context.redis, prefix: context.prefix });
    try {
      const order = async () => (await queue.getPrioritized()).map((job) => job.id);
      expect(await order()).toEqual([ids.enterprise, ids.pro, secondPro.body.id, ids.free]);
      // Behind the Enterprise job that was already waiting, ahead of the Pro ones.
      await moveTo(free, 'enterprise');
      expect(await order()).toEqual([ids.enterprise, ids.free, ids.pro, secondPro.body.id]);
      // The places the page shows follow the move: last of its new level, not by submission time.
      expect([
        await placeOf(enterprise, ids.enterprise!),
        await placeOf(free, ids.free!),
        await placeOf(pro, ids.pro!),
        await placeOf(pro, secondPro.body.id as string),
      ]).toEqual([1, 2, 3, 4]);
    } finally {
      await queue.close();
    }
  });
});

describe('served files follow the plan', () => {
  it('a free generation is served marked; after an upgrade the same link serves the original, and marked again after a downgrade', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const accepted = await api.submit(imageRequest());
    const id = accepted.body.id as string;
    const store: ArtifactStore = server.app.artifactStore;
    const original = Buffer.from('original image bytes');
    const marked = Buffer.from('marked image bytes, a little longer');
    const saved = await store.save(id, original, 'image/png');
    const markedCopy = await store.save(markedCopyOf(id), marked, 'image/png');
    const lifecycle = new GenerationLifecycle(server.app.database.db);
    expect((await lifecycle.start(id)).ok).toBe(true);
    expect((await lifecycle.complete(id, { ...saved, markedKey: markedCopy.key })).ok).toBe(true);

    const url = (await api.get(id)).body.result.url as string;
    const served = async () => Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(await served()).toEqual(marked);
    await moveTo(user, 'pro');
    expect(await served()).toEqual(original);
    await moveTo(user, 'free');
    expect(await served()).toEqual(marked);

    // Deleting the generation deletes both files.
    expect((await api.remove(id)).status).toBe(204);
    expect(await store.stat(saved.key)).toBeNull();
    expect(await store.stat(markedCopy.key)).toBeNull();
  });
});
