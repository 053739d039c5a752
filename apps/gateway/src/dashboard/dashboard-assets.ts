import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

/** One built file of the dashboard, held in memory (the whole build is a few hundred KB). */
export interface DashboardAsset {
  body: Buffer;
  contentType: string;
  /** Hashed file names under `assets/` never change content, so browsers may keep them for good. */
  immutable: boolean;
}

/** The build's files by their path below the build directory (`index.html`, `assets/index-….js`); undefined: no build. */
export type BuildReader = () => Map<string, Buffer> | undefined;

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
 * The built single-page app (`vite build` output). Only files found in the build are ever served, so a request path
 * can never reach outside it; any other path without a file extension gets `index.html`, and the app's own router
 * shows the page (SPA fallback).
 */
export class DashboardAssets {
  private files?: Map<string, DashboardAsset>;

  constructor(private readonly readBuild: BuildReader) {}

  /** The asset for a path below `/dashboard/` (`''` is the app itself); undefined when there is none. */
  resolve(path: string): DashboardAsset | undefined {
    const files = this.load();
    if (!files) return undefined;
    const clean = path.split(/[?#]/)[0].replace(/^\/+/, '');
    const file = files.get(clean);
    if (file) return file;
    // A missing script or stylesheet is a 404, not the page: a browser would try to run HTML as code.
    return extname(clean) === '' ? files.get('index.html') : undefined;
  }

  /** Whether a build exists (the gateway runs without one, e.g. in its own tests). */
  get built(): boolean {
    return this.load() !== undefined;
  }

  /** Reads the build once it exists; until then each request looks again, so building after start works. */
  private load(): Map<string, DashboardAsset> | undefined {
    if (this.files) return this.files;
    const build = this.readBuild();
    if (!build?.has('index.html')) return undefined;
    this.files = new Map(
      [...build].map(([name, body]) => [name, { body, contentType: CONTENT_TYPES[extname(name)] ?? 'application/octet-stream', immutable: name.startsWith('assets/') }]),
    );
    return this.files;
  }
}

/** Reads a `vite build` output directory; undefined until it has an index.html. */
export function readBuildDirectory(directory: string): BuildReader {
  return () => {
    if (!existsSync(join(directory, 'index.html'))) return undefined;
    const files = new Map<string, Buffer>();
    for (const file of walk(directory)) files.set(relative(directory, file).split(sep).join('/'), readFileSync(file));
    return files;
  };
}

function* walk(directory: string): Generator<string> {
  for (const entry of readdirSync(directory)) {
    const full = join(directory, entry);
    if (statSync(full).isDirectory()) yield* walk(full);
    else yield full;
  }
}
