import { expect, it } from 'vitest';
import generationJobOwner from '../../eslint-rules/generation-job-owner.js';
import { typedLintMessages } from './support/typed-lint';

/**
 * The lint rule that keeps changes to generations' jobs and files in the job owner, on code whose types
 * it reads: the same method names on other types (a Set's add, a Map's delete) pass.
 */

function problems(code: string): string[] {
  return typedLintMessages(code, 'generation-job-owner', generationJobOwner);
}

const DECLARATIONS = `
  declare class Queue<T> { add(name: string, data: T): Promise<void>; remove(id: string): Promise<number>; getJob(id: string): Promise<Job | undefined> }
  declare class Job { changePriority(options: { priority: number }): Promise<void>; getState(): Promise<string> }
  interface ArtifactStore { remove(key: string): Promise<void>; stat(key: string): Promise<unknown> }
  declare const queue: Queue<{ kind: string }>;
  declare const store: Pick<ArtifactStore, 'remove'>;
`;

it("refuses a queue's add and remove, a job's changePriority and an artifact store's remove", () => {
  expect(
    problems(`${DECLARATIONS}
      export async function run() {
        await queue.add('image', { kind: 'image' });
        await queue.remove('id');
        await (await queue.getJob('id'))?.changePriority({ priority: 1 });
        await store.remove('key');
      }`),
  ).toEqual([
    expect.stringContaining('Queue.add'),
    expect.stringContaining('Queue.remove'),
    expect.stringContaining('Job.changePriority'),
    expect.stringContaining('ArtifactStore.remove'),
  ]);
});

it('lets reads through, and the same names on other types', () => {
  expect(
    problems(`${DECLARATIONS}
      export async function run() {
        await queue.getJob('id');
        await (await queue.getJob('id'))?.getState();
        new Set<string>().add('x');
        new Map<string, number>().delete('x');
        const list = { remove: (id: string) => id };
        list.remove('x');
      }`),
  ).toEqual([]);
});
