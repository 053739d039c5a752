/** What a job keeps of its file's bad rows: the first ones, enough to fix a file by. */
export const MAX_REPORTED_FAILURES = 1000;
/** The largest CSV taken (the gateway refuses larger bodies before). */
export const MAX_IMPORT_BYTES = 16 * 1024 * 1024;
