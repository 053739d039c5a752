// Reads files out of a zip archive (a jar is one) with Node built-ins only: the central directory at the end names
// every entry with its sizes, CRC-32 and where its local header starts; the data follows that header, stored or
// deflated. Enough for the jars tools/models fetches (no zip64, no encryption), which is all it needs to be.
'use strict';
const zlib = require('node:zlib');

const EOCD = 0x06054b50; // end of central directory record
const CENTRAL = 0x02014b50; // central directory file header
const LOCAL = 0x04034b50; // local file header
const STORED = 0;
const DEFLATED = 8;

/** The entries of the archive's central directory: name, method, sizes, CRC-32 and the offset of the local header. */
function listEntries(zip) {
  // The end record is 22 bytes plus a comment of up to 64 KiB: search backwards for its signature.
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip archive (no end of central directory record)');
  const count = zip.readUInt16LE(end + 10);
  const size = zip.readUInt32LE(end + 12);
  let at = zip.readUInt32LE(end + 16);
  if (count === 0xffff || size === 0xffffffff || at === 0xffffffff) throw new Error('zip64 archives are not supported');
  if (at + size > end) throw new Error('the zip central directory lies outside the archive');
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || zip.readUInt32LE(at) !== CENTRAL) throw new Error(`zip central directory entry ${i} is damaged`);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    entries.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      flags: zip.readUInt16LE(at + 8),
      method: zip.readUInt16LE(at + 10),
      crc32: zip.readUInt32LE(at + 16),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localHeader: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * One entry's bytes, checked against the central directory's size and CRC-32. The sizes come from the central
 * directory, not the local header: jar tools write the local one as zero and put the real sizes after the data.
 */
function readEntry(zip, entry) {
  if (entry.flags & 0x1) throw new Error(`${entry.name}: encrypted zip entries are not supported`);
  const at = entry.localHeader;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL) throw new Error(`${entry.name}: the local zip header is damaged`);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  if (start + entry.compressedSize > zip.length) throw new Error(`${entry.name}: the archive is truncated`);
  const raw = zip.subarray(start, start + entry.compressedSize);
  let data;
  if (entry.method === STORED) data = raw;
  else if (entry.method === DEFLATED) data = zlib.inflateRawSync(raw, { maxOutputLength: Math.max(entry.size, 1) });
  else throw new Error(`${entry.name}: unsupported zip compression method ${entry.method}`);
  if (data.length !== entry.size) throw new Error(`${entry.name}: ${data.length} bytes, the zip directory says ${entry.size}`);
  if (zlib.crc32(data) !== entry.crc32) throw new Error(`${entry.name}: CRC-32 mismatch (a damaged archive)`);
  return data;
}

/** The named entries' bytes, by name; throws naming any entry the archive lacks. */
function extractEntries(zip, names) {
  const entries = new Map(listEntries(zip).map((entry) => [entry.name, entry]));
  const missing = names.filter((name) => !entries.has(name));
  if (missing.length) throw new Error(`the archive has no ${missing.join(', ')}`);
  return new Map(names.map((name) => [name, readEntry(zip, entries.get(name))]));
}

module.exports = { listEntries, readEntry, extractEntries };
