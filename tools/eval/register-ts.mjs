// Loads the repository's TypeScript sources in a plain Node script (the evaluation tools run the engine in process).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const require = createRequire(import.meta.url);
registerTypeScript();

/** Loads the repository's .ts sources through swc (decorators as in jest.preset.cjs) and resolves the @parley/* paths. */
function registerTypeScript() {
  const swc = require('@swc/core');
  const Module = require('node:module');
  const { compilerOptions } = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.base.json'), 'utf8'));
  const aliases = Object.fromEntries(Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, path.join(ROOT, target)]));
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return resolve.call(this, aliases[request] ?? request, ...rest);
  };
  require.extensions['.ts'] = (module, filename) => {
    const { code } = swc.transformSync(readFileSync(filename, 'utf8'), {
      filename,
      module: { type: 'commonjs' },
      jsc: {
        target: 'es2022',
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
        keepClassNames: true,
      },
    });
    module._compile(code, filename);
  };
  require('reflect-metadata');
}
