import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

/** One built file of a site, held in memory (a build is a few hundred KB to a few MB). */
export interface BuiltAsset {
  body: Buffer;
  contentType: string;
  /** Hashed file names under `assets/` never change content, so browsers may keep them for good. */
  immutable: boolean;
}

/**
 * The build's files by their path below the build directory (`index.html`, `assets/index-….js`); undefined: no build.
 * `stamp`, when given, changes when the build is replaced, so a site rebuilt while the gateway runs is read again.
 */
export type BuildReader = (() => Map<string, Buffer> | undefined) & { stamp?: () => number | undefined };

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * How a path without a file of its own is answered: a single-page app's `index.html` for any page path (its own
 * router shows the page), or a static site's page of that name (`quickstart` → `quickstart.html`, `guides/` →
 * `guides/index.html`, as VitePress's clean URLs link them).
 */
export type PageRouting = 'single-page-app' | 'static-pages';

/**
 * A built site (`vite build` or `vitepress build` output) served from memory. Only files found in the build are ever
 * served, so a request path can never reach outside it.
 */
export class BuiltSite {
  private files?: Map<string, BuiltAsset>;
  private filesStamp?: number;

  constructor(
    private readonly readBuild: BuildReader,
    private readonly routing: PageRouting,
  ) {}

  /** The asset for a path below the site's prefix (`''` is its index); undefined when there is none. */
  resolve(path: string): BuiltAsset | undefined {
    const files = this.load();
    if (!files) return undefined;
    const clean = path.split(/[?#]/)[0].replace(/^\/+/, '');
    const file = files.get(clean);
    if (file) return file;
    // A missing script or stylesheet is a 404, not a page: a browser would try to run HTML as code.
    if (extname(clean) !== '') return undefined;
    if (this.routing === 'single-page-app') return files.get('index.html');
    if (clean === '' || clean.endsWith('/')) return files.get(`${clean}index.html`);
    return files.get(`${clean}.html`) ?? files.get(`${clean}/index.html`);
  }

  /** A static site's own "page not found" (`404.html`), when it has one. */
  get notFoundPage(): BuiltAsset | undefined {
    return this.load()?.get('404.html');
  }

  /** Whether a build exists (the gateway runs without one, e.g. in its own tests). */
  get built(): boolean {
    return this.load() !== undefined;
  }

  /** Reads the build once it exists (until then each request looks again), and again once it was rebuilt. */
  private load(): Map<string, BuiltAsset> | undefined {
    const stamp = this.readBuild.stamp?.();
    if (this.files && stamp === this.filesStamp) return this.files;
    const build = this.readBuild();
    if (!build?.has('index.html')) return undefined;
    this.filesStamp = stamp;
    this.files = new Map(
      [...build].map(([name, body]) => [name, { body, contentType: CONTENT_TYPES[extname(name)] ?? 'application/octet-stream', immutable: name.startsWith('assets/') }]),
    );
    return this.files;
  }
}

/** A request path below a site's prefix, decoded; one that is not valid percent-encoding names no file (never a 500). */
export function decodeSitePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return '\0';
  }
}

/** Reads a build output directory; undefined until it has an index.html. Its stamp is that file's modification time. */
export function readBuildDirectory(directory: string): BuildReader {
  const index = join(directory, 'index.html');
  const read: BuildReader = () => {
    if (!existsSync(index)) return undefined;
    const files = new Map<string, Buffer>();
    for (const file of walk(directory)) files.set(relative(directory, file).split(sep).join('/'), readFileSync(file));
    return files;
  };
  read.stamp = () => (existsSync(index) ? statSync(index).mtimeMs : undefined);
  return read;
}

function* walk(directory: string): Generator<string> {
  for (const entry of readdirSync(directory)) {
    const full = join(directory, entry);
    if (statSync(full).isDirectory()) yield* walk(full);
    else yield full;
  }
}
