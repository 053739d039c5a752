import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../..');

// `npm run docs` itself: VitePress refuses a link to a missing page, tools/docs/build.mjs one to a missing heading or
// a README.md link to a missing file. A broken link fails this test, and with it `npm test`.
describe('the docs site', () => {
  it('builds with every link landing, README.md at most 10 KB, and the guides a newcomer looks for', () => {
    const output = execFileSync(process.execPath, [join(root, 'tools/docs/build.mjs')], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
    expect(output).toContain('every link lands');
    expect(readFileSync(join(root, 'README.md')).length).toBeLessThanOrEqual(10 * 1024);
    for (const page of ['index', 'quickstart', 'guides/campaigns', 'guides/webhooks', 'guides/deploy-kubernetes', 'reference/events', '404']) {
      expect(existsSync(join(root, 'dist/docs', `${page}.html`))).toBe(true);
    }
  }, 180_000);
});
