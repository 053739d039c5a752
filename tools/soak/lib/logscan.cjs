'use strict';
// The services' logs, judged: pino writes one JSON object per line (level 50 error, 60 fatal, 40 warn). Nothing is
// injected in a soak, so every error line is a finding; warnings are reported. A line that is not JSON (a crash's
// stack trace on stderr, say) counts as an error when it reads like one. Pure apart from scanLogFiles.
const fs = require('node:fs');
const readline = require('node:readline');

/** `{kind: 'error' | 'warn', level, msg, time}` for a line worth reporting, else null (`time`: pino's, epoch ms). */
function classifyLine(line) {
  const text = line.trim();
  if (!text || text.startsWith('--- ')) return null; // the supervisor's "starting <app>" marker
  if (text.startsWith('{')) {
    try {
      const entry = JSON.parse(text);
      const level = typeof entry.level === 'number' ? entry.level : { fatal: 60, error: 50, warn: 40 }[entry.level];
      const msg = String(entry.msg ?? entry.message ?? '').slice(0, 300) || '(no msg)';
      const detail = entry.err?.message ?? entry.error?.message ?? (typeof entry.error === 'string' ? entry.error : undefined);
      const summary = detail ? `${msg}: ${String(detail).slice(0, 200)}` : msg;
      const time = typeof entry.time === 'number' ? entry.time : undefined;
      if (level >= 50) return { kind: 'error', level, msg: summary, time };
      if (level >= 40) return { kind: 'warn', level, msg: summary, time };
      return null;
    } catch {
      /* not JSON after all: judged as plain text below */
    }
  }
  if (/\b(error|exception|fatal|unhandled|ECONNREFUSED)\b/i.test(text) || /^\s+at \S/.test(line)) return { kind: 'error', level: null, msg: text.slice(0, 300) };
  return null;
}

function emptyScan() {
  return { errors: [], warnings: [], startup: [] };
}

/**
 * Adds one log's lines to `scan` (`{errors: [{app, msg, line}], warnings: [...], startup: [...]}`); returns the scan.
 * Lines stamped before `since` (epoch ms: when the load started) go to `startup`: the broker electing leaders for
 * fresh topics makes kafkajs log errors while the services start, which is not what a soak judges. Lines without a
 * time (plain text) are always judged.
 */
function scanLines(app, lines, scan = emptyScan(), since = 0) {
  for (const line of lines) {
    const found = classifyLine(line);
    if (!found) continue;
    const entry = { app, kind: found.kind, msg: found.msg, line: line.slice(0, 1000) };
    if (found.time !== undefined && found.time < since) scan.startup.push(entry);
    else (found.kind === 'error' ? scan.errors : scan.warnings).push(entry);
  }
  return scan;
}

/** Entries grouped by service and message: `[{app, msg, count, example}]`, most frequent first. */
function groupEntries(entries) {
  const groups = new Map();
  for (const e of entries) {
    // Ids (msg_01M8…, evt_…, UUIDs) and numbers vary between lines of the same kind.
    const key = `${e.app}\u0000${e.msg.replace(/[\w-]*[A-Za-z0-9]{16,}[\w-]*/g, 'ID').replace(/\d+/g, 'N')}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { app: e.app, msg: e.msg, count: 1, example: e.line });
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

/** Scans every `{app: file}` log, line by line (a soak's logs can be large). */
async function scanLogFiles(files, since = 0) {
  const scan = emptyScan();
  for (const [app, file] of Object.entries(files)) {
    if (!fs.existsSync(file)) continue;
    const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) scanLines(app, [line], scan, since);
  }
  return scan;
}

module.exports = { classifyLine, scanLines, groupEntries, scanLogFiles };
