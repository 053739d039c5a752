// Types of test-failures.cjs for TypeScript callers.
export interface FailedTest {
  title: string;
  /** The first line jest printed under the test: the assertion or the error. */
  reason: string;
}
export interface FailedFile {
  file: string;
  /** jest's displayName, when the config sets one. */
  project: string | undefined;
  tests: FailedTest[];
}
export declare class TestFailureCollector {
  push(chunk: string | Buffer): void;
  failures(): { files: FailedFile[]; tasks: string[] };
}
