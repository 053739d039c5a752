// Types of zip.cjs for TypeScript callers (its spec).
export interface ZipEntry {
  name: string;
  flags: number;
  /** 0 stored, 8 deflated */
  method: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeader: number;
}
export declare function listEntries(zip: Buffer): ZipEntry[];
export declare function readEntry(zip: Buffer, entry: ZipEntry): Buffer;
export declare function extractEntries(zip: Buffer, names: string[]): Map<string, Buffer>;
