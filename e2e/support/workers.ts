/**
 * Browser test files run this many at a time, each on a stack of its own. Most of a browser test waits
 * (the simulator's latency, a video's polls, a toast's time), but beside the other suites on a 2-core CI
 * host a second stack and browser starved them into timeouts: one, until CI has more cores.
 */
export const E2E_WORKERS = 1;
