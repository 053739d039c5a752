import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractRunnableBlocks, hasRunnableBlocks, matchesExpected, runPage } from './runnable-examples.cjs';

const page = [
  '# A page',
  '',
  '```bash',
  'echo "not runnable: shown only"',
  '```',
  '',
  '<!-- runnable -->',
  '```bash',
  'NAME=Acme',
  'echo "{\\"name\\":\\"$NAME\\",\\"id\\":\\"ten_$RANDOM\\"}"',
  '```',
  '',
  '<!-- output -->',
  '```json',
  '{"name":"Acme","id":"ten_…"}',
  '```',
  '',
  'Then:',
  '',
  '<!-- runnable -->',
  '```bash',
  'echo "$NAME again"',
  '```',
].join('\n');

describe('extractRunnableBlocks', () => {
  it('finds the marked blocks in order, with the output the page shows and their line', () => {
    expect(extractRunnableBlocks(page)).toEqual([
      { code: 'NAME=Acme\necho "{\\"name\\":\\"$NAME\\",\\"id\\":\\"ten_$RANDOM\\"}"', expected: '{"name":"Acme","id":"ten_…"}', line: 7 },
      { code: 'echo "$NAME again"', expected: undefined, line: 20 },
    ]);
  });

  it('takes a marker only alone on its line, so a page may quote one in its text', () => {
    expect(extractRunnableBlocks('Put `<!-- runnable -->` before a block.\n\n```bash\necho hi\n```\n')).toEqual([]);
    expect(hasRunnableBlocks('Put `<!-- runnable -->` before a block.')).toBe(false);
    expect(hasRunnableBlocks(page)).toBe(true);
  });

  it('refuses a marker without a fenced block after it, so a page cannot silently lose an example', () => {
    expect(() => extractRunnableBlocks('<!-- runnable -->\n\nSome text.\n')).toThrow('line 1: <!-- runnable --> is not followed by a fenced code block');
  });
});

describe('matchesExpected', () => {
  it('takes … for any text within a line, and ignores trailing spaces and surrounding blank lines', () => {
    expect(matchesExpected('{"id":"msg_01JD3S"}  \n\n', '{"id":"msg_…"}')).toBe(true);
    expect(matchesExpected('{"id":"msg_01JD3S","status":"sent"}', '{"id":"msg_…","status":"sent"}')).toBe(true);
    expect(matchesExpected('{"id":"msg_01JD3S","status":"failed"}', '{"id":"msg_…","status":"sent"}')).toBe(false);
    expect(matchesExpected('line one\nline two', 'line …')).toBe(false); // … never spans lines
    expect(matchesExpected('a.b (c)', 'a.b (c)')).toBe(true); // the page's text is literal, not a pattern
    expect(matchesExpected('axb (c)', 'a.b (c)')).toBe(false);
  });
});

describe('runPage', () => {
  const cwd = () => mkdtempSync(join(tmpdir(), 'docs-examples-'));

  it('runs the blocks in one shell, so a variable of one is there in the next, and checks each output', async () => {
    const results = await runPage(page, { cwd: cwd() });
    expect(results.map((r) => [r.line, r.ok, r.output.trim()])).toEqual([
      [7, true, expect.stringMatching(/^\{"name":"Acme","id":"ten_\d+"\}$/)],
      [20, true, 'Acme again'],
    ]);
  });

  it('stops at the first output that differs from the page, saying so', async () => {
    const results = await runPage(page.replace('NAME=Acme', 'NAME=Other'), { cwd: cwd() });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ ok: false, error: 'its output differs from what the page shows' });
  });

  it('stops at a failing command (bash -e, pipefail) with its stderr, and rewrites addresses for the stack under test', async () => {
    const failing = '<!-- runnable -->\n```bash\necho "$GW"\n```\n\n<!-- output -->\n```text\n$GW\n```\n\n<!-- runnable -->\n```bash\nfalse | cat\necho never\n```\n';
    const results = await runPage(failing, { cwd: cwd(), rewrite: (code) => code.replace('$GW', 'http://127.0.0.1:43000') });
    expect(results.map((r) => r.ok)).toEqual([true, false]);
    expect(results[0].output.trim()).toBe('http://127.0.0.1:43000');
    expect(results[1].error).toMatch(/^the block failed \(bash exit 1\)/);
  });

  it('ends what a page left running in the background', async () => {
    const dir = cwd();
    const results = await runPage('<!-- runnable -->\n```bash\nsleep 300 &\necho $! > pid\n```\n', { cwd: dir });
    expect(results[0].ok).toBe(true);
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const deadline = Date.now() + 5000;
    while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
  });
});
