#!/usr/bin/env node
// The production package.json of one app's image: only the npm packages its code can load at run time.
//   node docker/app-package.cjs <app>     prints it (the Dockerfiles install from it with the workspace lock file)
// Follows the imports from apps/<app>/src/{main,migrate}.ts through the @parley libraries (type-only imports, tests
// and tooling outside that graph are left out), then adds the peer dependencies of what it found (packages Nest,
// TypeORM and pino load by name at run time, e.g. pg, class-validator, pino-http). Versions are the workspace's.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { builtinModules } = require('node:module');
const { dirname, join, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..');
const IMPORT = /(?:^|[\n;])\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolveSource(fromFile, specifier) {
  const base = specifier.startsWith('@parley/') ? join(ROOT, 'libs', specifier.slice('@parley/'.length), 'src', 'index') : resolve(dirname(fromFile), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base]) if (existsSync(candidate) && !candidate.endsWith('/')) return candidate;
  return undefined;
}

const packageName = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/**
 * What an app's entry points reach: the npm packages (with the workspace's versions, peers included) and the
 * @parley libraries (which the image must build).
 */
function scanApp(app, root = ROOT) {
  const workspace = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const entries = ['main.ts', 'migrate.ts'].map((f) => join(root, 'apps', app, 'src', f)).filter((f) => existsSync(f));
  if (entries.length === 0) throw new Error(`apps/${app}/src/main.ts not found`);
  const seen = new Set();
  const packages = new Set();
  const libraries = new Set();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.tsx?$/.test(file)) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (specifier.startsWith('@parley/')) libraries.add(specifier.slice('@parley/'.length));
      if (specifier.startsWith('.') || specifier.startsWith('@parley/')) {
        const target = resolveSource(file, specifier);
        if (!target) throw new Error(`${file}: cannot resolve ${specifier}`);
        queue.push(target);
      } else if (!specifier.startsWith('node:') && !builtinModules.includes(packageName(specifier))) {
        packages.add(packageName(specifier));
      }
    }
  }
  // Peers the found packages load by name at run time, when the workspace depends on them.
  for (const name of [...packages]) {
    const manifest = join(root, 'node_modules', name, 'package.json');
    if (!existsSync(manifest)) continue;
    for (const peer of Object.keys(JSON.parse(readFileSync(manifest, 'utf8')).peerDependencies ?? {})) {
      if (workspace.dependencies?.[peer] && !packages.has(peer)) {
        packages.add(peer);
        const peerManifest = join(root, 'node_modules', peer, 'package.json');
        if (existsSync(peerManifest)) for (const p of Object.keys(JSON.parse(readFileSync(peerManifest, 'utf8')).peerDependencies ?? {})) if (workspace.dependencies?.[p]) packages.add(p);
      }
    }
  }
  const missing = [...packages].filter((name) => !workspace.dependencies?.[name]);
  if (missing.length) throw new Error(`apps/${app} loads ${missing.join(', ')} at run time, but package.json lists them only as devDependencies (or not at all)`);
  return {
    dependencies: Object.fromEntries([...packages].sort().map((name) => [name, workspace.dependencies[name]])),
    libraries: [...libraries].sort(),
  };
}

/** The production package.json of an app's image. */
function appPackage(app, root = ROOT) {
  const own = join(root, 'apps', app, 'package.json');
  const version = existsSync(own) ? JSON.parse(readFileSync(own, 'utf8')).version : '0.0.0';
  return { name: `@parley/${app}`, version, private: true, dependencies: scanApp(app, root).dependencies };
}

module.exports = { scanApp, appPackage };

if (require.main === module) {
  const app = process.argv[2];
  if (!app) {
    console.error('usage: node docker/app-package.cjs <app>');
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(appPackage(app), null, 2)}\n`);
}
