#!/usr/bin/env node
// `npm run docs`: builds the docs site (VitePress, docs/ → dist/docs, served by the gateway at /guide in development)
// and fails on a broken link: a missing page (VitePress itself), a missing #fragment (site-links.cjs), or a link of
// README.md to a file that is not there.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const { brokenLinks } = createRequire(import.meta.url)('./lib/site-links.cjs');

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SITE_DIR = join(root, 'dist/docs');

/** Builds the site and checks its links; throws with every broken one listed. */
export async function buildDocs({ quiet = false } = {}) {
  const { build } = await import('vitepress');
  const started = Date.now();
  const { log, error } = console;
  if (quiet) console.log = () => {}; // VitePress prints its progress with console.log
  // A page that fails to render (a Vue expression in the Markdown) is logged by VitePress, which builds on regardless.
  const renderErrors = [];
  console.error = (...args) => {
    renderErrors.push(args.map(String).join(' '));
    error(...args);
  };
  try {
    await build(join(root, 'docs'));
  } finally {
    Object.assign(console, { log, error });
  }
  if (renderErrors.length) throw new Error(`Pages failed to render:\n${renderErrors.map((e) => `  ${e.split('\n')[0]}`).join('\n')}`);
  const broken = [...brokenLinks(SITE_DIR), ...readmeLinks()];
  if (broken.length) {
    throw new Error(`Broken links in the docs:\n${broken.map((b) => `  ${b.page}: ${b.href} (${b.reason})`).join('\n')}`);
  }
  return { ms: Date.now() - started };
}

/** README.md's relative links (to docs/… pages and other files) must name files that exist. */
function readmeLinks() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  return [...readme.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((href) => !/^[a-z]+:/i.test(href) && !href.startsWith('#'))
    .filter((href) => !existsSync(join(root, href.split('#')[0])))
    .map((href) => ({ page: 'README.md', href, reason: 'no such file' }));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { ms } = await buildDocs();
    console.log(`docs: built dist/docs in ${(ms / 1000).toFixed(1)} s, every link lands (served at /guide by the gateway in development)`);
  } catch (err) {
    console.error(err.message ?? err);
    process.exit(1);
  }
}
