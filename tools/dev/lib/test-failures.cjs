// Which tests failed, read from a tier's output as it streams by (jest's `FAIL` blocks and nx's "Failed tasks"), so the
// summary at the end of `npm test` names them: CI keeps only the tail of a run, where the tier's own report is long gone.
// Plain CommonJS with no dependencies: the runner imports it before anything is installed.

const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
const FAIL_LINE = /^\s*FAIL\s+(?:(\S+)\s+)?(\S+\.[cm]?[jt]sx?)(?:\s+\([^)]*\))?\s*$/;
const TEST_LINE = /^\s*● (.+)$/;
const NX_FAILED_TASKS = /^\s*Failed tasks:\s*$/;
const NX_TASK = /^\s*- (\S+:\S+)\s*$/;

/** Feed it output chunks with `push`; `failures()` lists each failed test file with its failed tests. */
class TestFailureCollector {
  constructor() {
    this.pending = '';
    this.files = new Map(); // file -> { file, project, tests: Map<title, firstLineOfError> }
    this.tasks = new Set();
    this.current = undefined; // the FAIL block being read
    this.awaitingReason = undefined; // the test whose first error line comes next
    this.inFailedTasks = false;
  }

  push(chunk) {
    const lines = (this.pending + String(chunk)).split(/\r?\n/);
    this.pending = lines.pop() ?? '';
    for (const line of lines) this.readLine(line.replace(ANSI, ''));
  }

  /** What failed: the files with their tests (in the order seen), then nx tasks that failed without a jest FAIL. */
  failures() {
    if (this.pending) {
      this.readLine(this.pending.replace(ANSI, ''));
      this.pending = '';
    }
    const files = [...this.files.values()].map(({ file, project, tests }) => ({
      file,
      project,
      tests: [...tests].map(([title, reason]) => ({ title, reason })),
    }));
    return { files, tasks: [...this.tasks] };
  }

  readLine(line) {
    if (this.inFailedTasks) {
      const task = NX_TASK.exec(line);
      if (task) return void this.tasks.add(task[1]);
      if (line.trim()) this.inFailedTasks = false;
    }
    if (NX_FAILED_TASKS.test(line)) {
      this.inFailedTasks = true;
      return;
    }
    if (/^\s*PASS\s/.test(line)) {
      this.current = this.awaitingReason = undefined;
      return;
    }
    const fail = FAIL_LINE.exec(line);
    if (fail) {
      const [, project, file] = fail;
      if (!this.files.has(file)) this.files.set(file, { file, project, tests: new Map() });
      this.current = this.files.get(file);
      this.awaitingReason = undefined;
      return;
    }
    if (!this.current) return;
    const test = TEST_LINE.exec(line);
    if (test) {
      const title = test[1].trim();
      // jest heads a failed file's captured console output with "● Console"; that is not a test
      if (title === 'Console') return void (this.awaitingReason = undefined);
      if (!this.current.tests.has(title)) this.current.tests.set(title, '');
      this.awaitingReason = title;
      return;
    }
    if (this.awaitingReason && line.trim()) {
      if (!this.current.tests.get(this.awaitingReason)) this.current.tests.set(this.awaitingReason, line.trim());
      this.awaitingReason = undefined;
    }
  }
}

module.exports = { TestFailureCollector };
