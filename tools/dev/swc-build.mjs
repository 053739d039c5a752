#!/usr/bin/env node
// Compiles TypeScript projects with swc (decorator metadata included) into dist/, mirroring the source tree:
//   node tools/dev/swc-build.mjs apps/gateway libs/kafka ...   (no argument: every app and lib)
// Libraries are reachable at run time as `@parley/<name>` through dist/node_modules/@parley/<name>/package.json,
// so the compiled apps run with plain `node dist/apps/<app>/src/main.js` and no path-alias loader.
import { transformFile } from '@swc/core';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = join(root, 'dist');
const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
delete swcrc.$schema;

const isSource = (f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !/\.(spec|integration-spec|e2e-spec)\.ts$/.test(f);

function* walk(dir) {
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) {
      if (entry !== 'test' && entry !== '__fixtures__') yield* walk(full);
    } else yield full;
  }
}

function allProjects() {
  return ['apps', 'libs'].flatMap((top) =>
    existsSync(join(root, top))
      ? readdirSync(join(root, top))
          .map((name) => `${top}/${name}`)
          // end-to-end test projects (apps/*-e2e) run from source under jest; nothing of theirs belongs in dist/
          .filter((p) => existsSync(join(root, p, 'src')) && existsSync(join(root, p, 'project.json')) && !p.endsWith('dashboard') && !p.endsWith('-e2e'))
      : [],
  );
}

/** The browser dashboard (apps/dashboard) is bundled by Vite into dist/apps/dashboard, which the gateway serves. */
const DASHBOARD = 'apps/dashboard';

async function buildDashboard() {
  const { build } = await import('vite');
  const output = await build({ configFile: join(root, DASHBOARD, 'vite.config.mts'), logLevel: 'warn' });
  const outputs = Array.isArray(output) ? output : [output];
  return outputs.reduce((n, o) => n + ('output' in o ? o.output.length : 0), 0);
}

export async function buildProject(projectRoot) {
  if (projectRoot.replace(/\/+$/, '') === DASHBOARD) return buildDashboard();
  const src = join(root, projectRoot, 'src');
  const files = [...walk(src)];
  let count = 0;
  await Promise.all(
    files.map(async (file) => {
      const out = join(dist, relative(root, file));
      mkdirSync(dirname(out), { recursive: true });
      if (!isSource(file)) {
        if (/\.(json|html|css|sql|txt)$/.test(file)) writeFileSync(out, readFileSync(file));
        return;
      }
      const js = out.replace(/\.ts$/, '.js');
      const result = await transformFile(file, { ...swcrc, swcrc: false, filename: file, sourceFileName: relative(dirname(js), file) });
      writeFileSync(js, `${result.code}\n//# sourceMappingURL=${js.split('/').pop()}.map\n`);
      if (result.map) writeFileSync(`${js}.map`, result.map);
      count++;
    }),
  );
  if (projectRoot.startsWith('libs/')) {
    const name = projectRoot.split('/')[1];
    const alias = join(dist, 'node_modules', '@parley', name);
    mkdirSync(alias, { recursive: true });
    writeFileSync(join(alias, 'package.json'), JSON.stringify({ name: `@parley/${name}`, main: `../../../libs/${name}/src/index.js` }, null, 2));
  }
  return count;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const projects = process.argv.slice(2).length ? process.argv.slice(2) : [...allProjects(), ...(existsSync(join(root, DASHBOARD)) ? [DASHBOARD] : [])];
  const started = Date.now();
  const counts = await Promise.all(projects.map(buildProject));
  process.stderr.write(`[build] ${projects.join(', ')}: ${counts.reduce((a, b) => a + b, 0)} files in ${Date.now() - started} ms\n`);
}
