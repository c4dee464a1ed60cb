import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (from the runs' own reports, README "Tests"), started first: a clean clone
 * has no timing cache, and Vitest would otherwise order files by project name and size, so a long file
 * with a small source (a table of provider faults walked one by one) started near the end and ran alone.
 */
const LONGEST_FIRST = [
  'server/test/creator-errors-video.test.ts',
  'ops/test/commands.test.ts',
  'server/test/closing-wins.test.ts',
  'faults/redis-failover.test.ts',
  'faults/provider-faults.test.ts',
  'faults/several-hosts.test.ts',
  'faults/hostile-input.test.ts',
  'client/src/features/generations/components/GeneratorPanels.test.tsx',
  'faults/production-config.test.ts',
  'faults/record-outage.test.ts',
  'faults/worker-crash.test.ts',
  'server/test/creator-errors.test.ts',
  'worker/test/worker-processes.test.ts',
  'worker/test/minimax-errors.test.ts',
];

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const known = LONGEST_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return known === -1 ? LONGEST_FIRST.length : known;
    };
    // Array.prototype.sort is stable: the rest keep Vitest's own order.
    return [...base].sort((a, b) => rank(a) - rank(b));
  }
}
