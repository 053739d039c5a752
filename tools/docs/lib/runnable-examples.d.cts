export interface RunnableBlock {
  code: string;
  /** What the page shows the block prints, where it shows it (`…` stands for any text within a line). */
  expected?: string;
  /** The line of the block's `<!-- runnable -->` marker. */
  line: number;
}
export interface BlockResult extends RunnableBlock {
  output: string;
  ok: boolean;
  error?: string;
}
export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  rewrite?: (code: string) => string;
  timeoutMs?: number;
}
export function extractRunnableBlocks(markdown: string): RunnableBlock[];
/** Whether a page has a `<!-- runnable -->` marker alone on a line. */
export function hasRunnableBlocks(markdown: string): boolean;
export function matchesExpected(actual: string, expected: string): boolean;
export function runPage(markdown: string, options?: RunOptions): Promise<BlockResult[]>;
