import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, as the end-to-end tests use it; never a downloaded browser. */
export const BENCH_CHROMIUM_PATH = process.env.HEARTH_CHROMIUM ?? '/usr/lib/chromium/chromium';

/**
 * Headless Chromium without CPU throttling. No GPU here, so compositing and raster run in software on the
 * CPU: the frame rates measured include that cost, as they would on a machine without GPU acceleration.
 */
export function launchBenchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: BENCH_CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-dev-shm-usage'],
  });
}
