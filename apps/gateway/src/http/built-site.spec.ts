import { BuiltSite } from './built-site';

const PAGE = '<!doctype html><div id="root"></div>';
const build = () =>
  new Map([
    ['index.html', Buffer.from(PAGE)],
    ['assets/index-abc123.js', Buffer.from('console.log(1)')],
    ['assets/index-abc123.css', Buffer.from('body{}')],
  ]);
const page = { contentType: 'text/html; charset=utf-8', immutable: false };

describe('BuiltSite of a single-page app', () => {
  const assets = new BuiltSite(build, 'single-page-app');

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
    const later = new BuiltSite(() => source.files, 'single-page-app');
    expect(later.built).toBe(false);
    expect(later.resolve('/')).toBeUndefined();
    source.files = build();
    expect(later.built).toBe(true);
    const asset = later.resolve('/agents');
    expect(asset?.body.toString()).toBe(PAGE);
    expect(asset).toMatchObject(page);
  });
});

describe('BuiltSite of static pages (VitePress clean URLs)', () => {
  const html = (name: string) => Buffer.from(`<!doctype html><title>${name}</title>`);
  const site = new BuiltSite(
    () =>
      new Map([
        ['index.html', html('home')],
        ['quickstart.html', html('quickstart')],
        ['guides/index.html', html('guides')],
        ['guides/campaigns.html', html('campaigns')],
        ['404.html', html('not found')],
        ['assets/app.abc123.js', Buffer.from('1')],
      ]),
    'static-pages',
  );
  const titleOf = (path: string) => site.resolve(path)?.body.toString().replace(/.*<title>(.*)<\/title>/, '$1');

  it('answers a page by its clean URL, its .html name or its folder', () => {
    expect(titleOf('')).toBe('home');
    expect(titleOf('/quickstart')).toBe('quickstart');
    expect(titleOf('/quickstart.html')).toBe('quickstart');
    expect(titleOf('/guides/campaigns?q=1#top')).toBe('campaigns');
    expect(titleOf('/guides/')).toBe('guides');
    expect(titleOf('/guides')).toBe('guides');
  });

  it('answers nothing for a page it does not have (never the index), and has its own 404 page', () => {
    for (const path of ['/nope', '/guides/nope', '/assets/missing.js', '/../package.json']) expect(site.resolve(path)).toBeUndefined();
    expect(site.notFoundPage?.body.toString()).toContain('not found');
  });
});

describe('BuiltSite rebuilt while the gateway runs', () => {
  it('reads the build again once its stamp changed, and not before', () => {
    let stamp = 1;
    let page = 'first';
    const reads = jest.fn(() => new Map([['index.html', Buffer.from(page)]]));
    const site = new BuiltSite(Object.assign(reads, { stamp: () => stamp }), 'static-pages');
    expect(site.resolve('')?.body.toString()).toBe('first');
    page = 'second';
    expect(site.resolve('')?.body.toString()).toBe('first');
    expect(reads).toHaveBeenCalledTimes(1);
    stamp = 2;
    expect(site.resolve('')?.body.toString()).toBe('second');
    expect(reads).toHaveBeenCalledTimes(2);
  });
});
