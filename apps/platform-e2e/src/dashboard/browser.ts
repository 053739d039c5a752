import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`npm test` installs the `chromium` package when it is missing); CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A real Chromium with a fresh profile, removed again by `close()`. */
export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launchBrowser(viewport = { width: 1280, height: 900 }): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}: install Debian's package (\`sudo apt-get install chromium\`; npm test does it) or set CHROMIUM_PATH.`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'parley-dashboard-e2e-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true, viewport });
  context.setDefaultTimeout(30_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Screenshots kept by the test run as artifacts (git-ignored): test-artifacts/dashboard/<NN>-<name>.png. */
export class Screenshots {
  private count = 0;

  constructor(readonly directory: string) {
    rmSync(directory, { recursive: true, force: true });
    mkdirSync(directory, { recursive: true });
  }

  async take(page: Page, name: string): Promise<string> {
    const file = join(this.directory, `${String(++this.count).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    return file;
  }
}
