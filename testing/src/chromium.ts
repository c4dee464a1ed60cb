/** Debian's Chromium unless CHROMIUM_PATH says otherwise: browser tests and the client bench drive it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Flags every headless Chromium here needs: no sandbox as root, no GPU and no software stand-in for one
 * (SwiftShader's emulated GL was the browser's busiest process; without it Chromium composites in
 * software, a tenth less CPU for the browser tests), and none of the background connections a closed
 * network refuses (they would fail by the dozen at every start).
 */
export const HEADLESS_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-software-rasterizer',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;
