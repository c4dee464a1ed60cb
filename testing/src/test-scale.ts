/**
 * `pnpm test:long` (MEDIAGEN_LONG_TESTS=1) runs the long variants: many more races and fuzz cases. A plain
 * run keeps enough of each to catch a regression while the whole suite stays fast.
 */
export const LONG_TESTS = process.env.MEDIAGEN_LONG_TESTS === '1';

export function scaled(usual: number, long: number): number {
  return LONG_TESTS ? long : usual;
}
