// Whether the built docs site (dist/docs) is newer than every source of it (docs/, its VitePress config included),
// so `npm start` and the end-to-end tier rebuild it only after a page changed.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'cache' || entry.name === 'dist') continue; // VitePress's own cache and output
    const full = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function siteIsFresh(root) {
  const index = join(root, 'dist/docs/index.html');
  return existsSync(index) && statSync(index).mtimeMs >= newestMtime(join(root, 'docs'));
}

module.exports = { siteIsFresh };
