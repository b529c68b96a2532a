import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, driven by playwright-core (Playwright's own browser download cannot work here). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether browser tests run: always in CI (where a missing Chromium fails them, `.ci/run`
 * installs it), and outside CI when Chromium is installed; otherwise they are skipped, saying why.
 */
export const browserAvailable = existsSync(CHROMIUM);
export const skipBrowser = !browserAvailable && process.env.CI !== 'true';
if (skipBrowser)
  console.warn(
    `browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`,
  );

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--disable-sync',
    ],
  });
}
