import { afterEach } from 'vitest';
import { createSimulator, type Simulator, type SimulatorOptions } from '../src/index';

const running: Simulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((simulator) => simulator.close()));
});

/** A simulator on a random port, closed after the test. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const simulator = createSimulator(options);
  running.push(simulator);
  await simulator.listen();
  return simulator;
}

export const AUTH = { authorization: 'Bearer test-key' };

export function postJson(url: string, body: unknown, headers: Record<string, string> = AUTH, signal?: AbortSignal) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

export function getWithKey(url: string, headers: Record<string, string> = {}) {
  return fetch(url, { headers: { ...AUTH, ...headers } });
}

export const SDXL_PATH = '/v1/generation/stable-diffusion-xl-1024-v1-0/text-to-image';
export const SD16_PATH = '/v1/generation/stable-diffusion-v1-6/text-to-image';

/** An SDXL request (the worker's default engine), at one of SDXL's nine sizes. */
export function imageBody(overrides: Record<string, unknown> = {}) {
  return {
    text_prompts: [
      { text: 'a lighthouse at dusk', weight: 1 },
      { text: 'blurry', weight: -1 },
    ],
    width: 1024,
    height: 1024,
    steps: 40,
    cfg_scale: 8,
    samples: 1,
    style_preset: 'photographic',
    sampler: 'DDIM',
    seed: 1234,
    ...overrides,
  };
}

export function videoBody(overrides: Record<string, unknown> = {}) {
  return { model: 'T2V-01', prompt: 'a paper boat on a river', prompt_optimizer: true, ...overrides };
}

export function speechBody(overrides: Record<string, unknown> = {}) {
  return {
    model: 'tts-1',
    input: 'Hello from the simulator.',
    voice: 'nova',
    speed: 1,
    response_format: 'mp3',
    ...overrides,
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
