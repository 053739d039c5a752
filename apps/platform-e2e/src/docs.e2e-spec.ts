import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
// The docs' own tooling (plain CommonJS, as the stack runner): the same code `npm start` and `npm run docs` run.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ROOT, freePorts } from '../../../tools/dev/lib/stack.cjs';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { hasRunnableBlocks, runPage, type BlockResult } from '../../../tools/docs/lib/runnable-examples.cjs';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { siteIsFresh } from '../../../tools/docs/lib/site-freshness.cjs';
import { expectNoSeriousA11yViolations } from './dashboard/accessibility';
import { launchBrowser, type Browser } from './dashboard/browser';
import { sharedPlatform, type Platform } from './support/platform';

// The docs as a newcomer meets them (issue 37): every shell block a page marks `<!-- runnable -->` (README.md and
// docs/**), run in order on a fresh stack with the addresses `npm start` uses rewritten to this one's, each printing
// what the page shows under it; and the built site at the gateway's /guide, searched in a real Chromium.

/** The pages with runnable blocks: README.md and every page of the docs site. */
function pagesWithExamples(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = join(dir, name);
      if (name.startsWith('.') || name === 'node_modules') return [];
      return statSync(full).isDirectory() ? walk(full) : full.endsWith('.md') ? [full] : [];
    });
  return [join(ROOT, 'README.md'), ...walk(join(ROOT, 'docs'))].filter((file) => hasRunnableBlocks(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));
}

/** The site as `npm run docs` builds it, built again when a page changed after the last build. */
function ensureSiteBuilt(): void {
  if (!siteIsFresh(ROOT)) execFileSync(process.execPath, [join(ROOT, 'tools/docs/build.mjs')], { cwd: ROOT, stdio: 'pipe' });
}

function describeFailure(page: string, results: BlockResult[]): string {
  const failed = results.find((r) => !r.ok);
  if (!failed) return '';
  return `${page}:${failed.line}: ${failed.error}\n--- it printed ---\n${failed.output}\n--- the page shows ---\n${failed.expected ?? ''}\n--- the block ---\n${failed.code}`;
}

describe('The docs: runnable examples on a fresh stack, and the site at /guide', () => {
  let platform: Platform;
  let receiverPort: number;
  const workDir = join(ROOT, 'tmp', 'docs-e2e');

  beforeAll(async () => {
    execFileSync('jq', ['--version']); // the pages use jq: say so at once when it is missing
    platform = await sharedPlatform();
    ({ receiver: receiverPort } = await freePorts(['receiver']));
    mkdirSync(workDir, { recursive: true });
    ensureSiteBuilt();
  }, 300_000);

  afterAll(async () => {
    await platform?.stop();
  });

  /** The development addresses the pages show, pointed at this stack; the receiver's port at a free one. */
  const rewrite = (code: string) =>
    code
      .replaceAll('http://127.0.0.1:3000', platform.gateway)
      .replaceAll('http://127.0.0.1:3100', platform.sandbox)
      .replaceAll('127.0.0.1:4000', `127.0.0.1:${receiverPort}`)
      .replace(/listen\(4000,/g, `listen(${receiverPort},`);

  const pages = pagesWithExamples();

  it('finds the runnable examples of the README and the Quickstart', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/quickstart.md']));
  });

  it.each(pages)('%s: every runnable block runs and prints what the page shows', async (page) => {
    // each page in a directory of its own inside the checkout, so `node` finds the workspace's packages
    const cwd = mkdtempSync(join(workDir, `${page.replace(/\W+/g, '-')}-`));
    const results = await runPage(readFileSync(join(ROOT, page), 'utf8'), { cwd, rewrite, timeoutMs: 150_000 });
    expect(describeFailure(page, results)).toBe('');
    expect(results.length).toBeGreaterThan(0);
    if (page === 'docs/quickstart.md') {
      // the point of the page: the customer's question reached the receiver, signature checked, with the agent's answer
      const event = results.find((r) => r.output.includes('"event":"message.received"'));
      expect(event?.output).toContain('"agent_response":"Hello from Acme Bakery!\\n\\nWe are open Monday to Saturday from 7:00 to 18:00.');
    }
  }, 180_000);

  describe('in a real browser', () => {
    let browser: Browser;

    beforeAll(async () => {
      browser = await launchBrowser();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
    });

    it('opens /guide, searches for "campaign" and lands on the campaigns guide', async () => {
      const { page } = browser;
      await page.goto(`${platform.gateway}/guide`);
      await page.getByRole('heading', { level: 1, name: 'Parley' }).waitFor();
      await expectNoSeriousA11yViolations(page, '/guide');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.locator('#localsearch-input').fill('campaign');
      await page.locator('.VPLocalSearchBox .result').first().waitFor();
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/guide/guides/campaigns'); // at its first heading's #anchor
      await page.getByRole('heading', { level: 1, name: 'Campaigns' }).waitFor();
      // a page opened by its address, and one that does not exist
      const quickstart = await page.goto(`${platform.gateway}/guide/quickstart`);
      expect(quickstart?.status()).toBe(200);
      await page.getByRole('heading', { level: 1, name: 'Quickstart' }).waitFor();
      const missing = await page.goto(`${platform.gateway}/guide/no-such-page`);
      expect(missing?.status()).toBe(404);
    }, 120_000);
  });
});
