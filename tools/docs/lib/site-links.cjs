// Checks the links of the built docs site (dist/docs): every link inside the site reaches a page, and every
// `#fragment` an element with that id on it. VitePress refuses links to missing pages while it builds; the fragments
// (a renamed heading) only a look at the built pages can check. External links are not followed (no network in CI).
const { existsSync, readFileSync, readdirSync, statSync } = require('node:fs');
const { join, posix, relative, sep } = require('node:path');

/** Every `href` of a page (HTML), decoded; `<a>`, `<link>` and the rest alike. */
function hrefsOf(html) {
  return [...html.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
}

/** Every `id` on a page. */
function idsOf(html) {
  return new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => decodeURIComponent(m[1])));
}

/**
 * The built file a site link names, with `cleanUrls` (`/guide/quickstart` → `quickstart.html`), or undefined for a
 * link that leaves the site (another origin, `mailto:`, the gateway's own `/docs` or `/dashboard`).
 */
function targetOf(href, fromPage, base) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return undefined;
  const [pathPart, fragment = ''] = href.split('#');
  let path = pathPart === '' ? `/${fromPage}` : pathPart.startsWith('/') ? pathPart : posix.join(posix.dirname(`/${fromPage}`), pathPart);
  if (!path.startsWith('/')) return undefined;
  if (pathPart.startsWith('/')) {
    if (!path.startsWith(base)) return undefined;
    path = `/${path.slice(base.length)}`;
  }
  let file = decodeURIComponent(path.slice(1).split('?')[0]);
  if (file === '' || file.endsWith('/')) file += 'index.html';
  else if (!posix.extname(file)) file += '.html';
  return { file, fragment: decodeURIComponent(fragment) };
}

/** Broken links of a built site: `[{page, href, reason}]`, empty when every link lands. */
function brokenLinks(siteDir, base = '/guide/') {
  const pages = [...walk(siteDir)].filter((f) => f.endsWith('.html')).map((f) => relative(siteDir, f).split(sep).join('/'));
  const idCache = new Map();
  const ids = (file) => {
    if (!idCache.has(file)) idCache.set(file, idsOf(readFileSync(join(siteDir, file), 'utf8')));
    return idCache.get(file);
  };
  const broken = [];
  for (const page of pages) {
    for (const href of hrefsOf(readFileSync(join(siteDir, page), 'utf8'))) {
      const target = targetOf(href, page, base);
      if (!target) continue;
      if (!existsSync(join(siteDir, target.file))) broken.push({ page, href, reason: `no ${target.file}` });
      else if (target.fragment && target.file.endsWith('.html') && !ids(target.file).has(target.fragment)) {
        broken.push({ page, href, reason: `no #${target.fragment} on ${target.file}` });
      }
    }
  }
  return broken;
}

function* walk(directory) {
  for (const entry of readdirSync(directory)) {
    const full = join(directory, entry);
    if (statSync(full).isDirectory()) yield* walk(full);
    else yield full;
  }
}

module.exports = { hrefsOf, idsOf, targetOf, brokenLinks };
