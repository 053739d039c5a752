import { DashboardAssets } from './dashboard-assets';

const build = () =>
  new Map([
    ['index.html', Buffer.from('<!doctype html><div id="root"></div>')],
    ['assets/index-abc123.js', Buffer.from('console.log(1)')],
    ['assets/index-abc123.css', Buffer.from('body{}')],
  ]);

describe('DashboardAssets', () => {
  const assets = new DashboardAssets(build);

  it('serves the app at the root and at any page path (SPA fallback)', () => {
    for (const path of ['', '/', '/agents', '/webhooks/whk_1', '/playground?x=1']) {
      expect(assets.resolve(path)?.body.toString()).toContain('id="root"');
      expect(assets.resolve(path)?.contentType).toBe('text/html; charset=utf-8');
      expect(assets.resolve(path)?.immutable).toBe(false);
    }
  });

  it('serves built files with their type, hashed assets as immutable', () => {
    expect(assets.resolve('/assets/index-abc123.js')).toMatchObject({ contentType: 'text/javascript; charset=utf-8', immutable: true });
    expect(assets.resolve('/assets/index-abc123.css')).toMatchObject({ contentType: 'text/css; charset=utf-8', immutable: true });
  });

  it('answers nothing for a missing file or a path outside the build, never the page', () => {
    for (const path of ['/assets/missing.js', '/../../package.json', '/..%2f..%2fetc/passwd.txt', '/assets/../../gateway/src/main.js']) {
      expect(assets.resolve(path)).toBeUndefined();
    }
  });

  it('is not built until the build has an index.html, and picks it up once it has', () => {
    const source: { files?: Map<string, Buffer> } = {};
    const later = new DashboardAssets(() => source.files);
    expect(later.built).toBe(false);
    expect(later.resolve('/')).toBeUndefined();
    source.files = build();
    expect(later.built).toBe(true);
    expect(later.resolve('/agents')).toBeDefined();
  });
});
