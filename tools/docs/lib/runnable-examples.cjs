// The docs' runnable examples: shell blocks marked `<!-- runnable -->` in a page, run in order in one bash process
// (so a variable set by one block is there for the next), each checked against the block marked `<!-- output -->` that
// follows it, where the page shows one. The end-to-end tier runs the pages against a fresh stack
// (apps/platform-e2e/src/docs.e2e-spec.ts); `node tools/docs/run-examples.mjs <page>` runs one against `npm start`.
const { spawn } = require('node:child_process');

const RUNNABLE = '<!-- runnable -->';
const OUTPUT = '<!-- output -->';
/** A marker counts alone on its line (a page may quote one in its text). */
const RUNNABLE_LINE = /^<!-- runnable -->[ \t]*$/m;
const FENCE = /^(`{3,})([^\n`]*)\n([\s\S]*?)\n\1[ \t]*$/m;

/**
 * The runnable blocks of a Markdown page, in order: `{code, expected, line}`. `expected` is the text of the
 * `<!-- output -->` block right after it (only blank lines between), else undefined. A marker not followed by a fenced
 * block is an error: a page must not silently lose its examples.
 */
function extractRunnableBlocks(markdown) {
  const blocks = [];
  let at = 0;
  for (;;) {
    const found = markdown.slice(at).match(RUNNABLE_LINE);
    if (!found) return blocks;
    const marker = at + found.index;
    const line = markdown.slice(0, marker).split('\n').length;
    const code = fencedBlockAfter(markdown, marker + RUNNABLE.length);
    if (!code) throw new Error(`line ${line}: ${RUNNABLE} is not followed by a fenced code block`);
    let expected;
    const rest = markdown.slice(code.end);
    const outputMarker = rest.match(/^\s*<!-- output -->[ \t]*\n/);
    if (outputMarker) {
      const output = fencedBlockAfter(markdown, code.end + outputMarker[0].length);
      if (!output) throw new Error(`line ${line}: ${OUTPUT} is not followed by a fenced code block`);
      expected = output.body;
      at = output.end;
    } else {
      at = code.end;
    }
    blocks.push({ code: code.body, expected, line });
  }
}

/** The fenced block starting after only whitespace at `from`: its body and where it ends. */
function fencedBlockAfter(markdown, from) {
  const lead = markdown.slice(from).match(/^\s*/)[0].length;
  const start = from + lead;
  const match = markdown.slice(start).match(FENCE);
  if (!match || match.index !== 0) return undefined;
  return { body: match[3], end: start + match[0].length };
}

/**
 * Whether a block's output is what the page shows: equal line by line after trimming each line's end, where `…` in
 * the page stands for any text (within a line). Leading and trailing blank lines do not count.
 */
function matchesExpected(actual, expected) {
  const lines = (text) => text.replace(/\r/g, '').split('\n').map((l) => l.trimEnd()).join('\n').trim();
  const pattern = lines(expected)
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^\\n]*?');
  return new RegExp(`^${pattern}$`).test(lines(actual));
}

/** Whether a page has runnable blocks. */
function hasRunnableBlocks(markdown) {
  return RUNNABLE_LINE.test(markdown);
}

/**
 * Runs a page's blocks in one `bash -e` (pipefail) from `cwd`, each block's output captured apart; `rewrite` maps the
 * addresses a page shows (the development ports) to the stack under test, in the blocks and in what they should print. Stops at the first block that fails or
 * whose output differs. Resolves `[{line, code, expected, output, ok, error?}]` for the blocks that ran.
 */
async function runPage(markdown, { cwd, env = {}, rewrite = (code) => code, timeoutMs = 120_000 } = {}) {
  const blocks = extractRunnableBlocks(markdown);
  const separator = `@@block-end-${process.pid}-${Date.now()}@@`;
  // Each block in a subshell-free group so its variables stay; its status ends the script at once when it fails.
  const script = [
    'set -eo pipefail',
    ...blocks.map((b, i) => `${rewrite(b.code)}\nprintf '\\n${separator} ${i}\\n'`),
    // whatever the page left running in the background (a receiver) ends with it
    'kill $(jobs -p) 2> /dev/null || true',
  ].join('\n');
  const { stdout, stderr, code } = await runBash(script, { cwd, env, timeoutMs });
  const outputs = stdout.split(new RegExp(`\\n?${separator} \\d+\\n`));
  const results = [];
  for (const [i, block] of blocks.entries()) {
    if (i >= outputs.length - 1) {
      results.push({ ...block, output: outputs[i] ?? '', ok: false, error: `the block failed (bash exit ${code}): ${stderr.trim().slice(-2000)}` });
      break;
    }
    const output = outputs[i];
    const ok = block.expected === undefined || matchesExpected(output, rewrite(block.expected));
    results.push({ ...block, output, ok, ...(ok ? {} : { error: 'its output differs from what the page shows' }) });
    if (!ok) break;
  }
  return results;
}

function runBash(script, { cwd, env, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const deadline = setTimeout(() => {
      stderr += `\n(stopped after ${timeoutMs} ms)`;
      killGroup(child.pid);
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(deadline);
      killGroup(child.pid); // a background job the page forgot
      resolve({ stdout, stderr, code });
    });
  });
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

module.exports = { extractRunnableBlocks, hasRunnableBlocks, matchesExpected, runPage };
