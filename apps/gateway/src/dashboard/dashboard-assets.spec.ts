import { DashboardAssets } from './dashboard-assets';

const PAGE = '<!doctype html><div id="root"></div>';
const build = () =>
  new Map([
    ['index.html', Buffer.from(PAGE)],
    ['assets/index-abc123.js', Buffer.from('console.log(1)')],
    ['assets/index-abc123.css', Buffer.from('body{}')],
  ]);
const page = { contentType: 'text/html; charset=utf-8', immutable: false };

describe('DashboardAssets', () => {
  const assets = new DashboardAssets(build);

  it('serves the app at the root and at any page path (SPA fallback)', () => {
    for (const path of ['', '/', '/agents', '/webhooks/whk_1', '/playground?x=1']) {
      const asset = assets.resolve(path);
      expect(asset?.body.toString()).toBe(PAGE);
      expect(asset).toMatchObject(page);
    }
  });

  it('serves built files with their type, hashed assets as immutable', () => {
    const script = assets.resolve('/assets/index-abc123.js');
    expect(script).toMatchObject({ contentType: 'text/javascript; charset=utf-8', immutable: true });
    expect(script?.body.toString()).toBe('console.log(1)');
    const styles = assets.resolve('/assets/index-abc123.css?v=2');
    expect(styles).toMatchObject({ contentType: 'text/css; charset=utf-8', immutable: true });
    expect(styles?.body.toString()).toBe('body{}');
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
    const asset = later.resolve('/agents');
    expect(asset?.body.toString()).toBe(PAGE);
    expect(asset).toMatchObject(page);
  });
});
