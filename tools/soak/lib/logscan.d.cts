// Types of logscan.cjs for TypeScript callers.
import type { LogEntry, LogScan } from './analysis.cjs';

export declare function classifyLine(line: string): { kind: 'error' | 'warn'; level: number | null; msg: string; time?: number } | null;
export declare function scanLines(app: string, lines: string[], scan?: LogScan, since?: number): LogScan;
export declare function groupEntries(entries: LogEntry[]): { app: string; msg: string; count: number; example: string }[];
export declare function scanLogFiles(files: Record<string, string>, since?: number): Promise<LogScan>;
