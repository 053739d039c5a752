// Types of leftovers.cjs for TypeScript callers (its integration spec).
export declare function processesOf(root: string, options?: { keep?: (command: string) => boolean }): { pid: number; command: string }[];
export declare function endProcesses(found: { pid: number }[], options?: { graceMs?: number }): Promise<number[]>;
export declare function alive(pid: number): boolean;
