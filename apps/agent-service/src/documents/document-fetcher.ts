import { DOCUMENT_FILE_MAX_BYTES, DOCUMENT_FILE_TYPES, type DocumentFileType } from '@parley/contracts';
import { isPublicAddress, publicOnlyLookup, urlHost, urlViolation } from '@parley/service-kit';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { documentFormat } from './document-formats';
import { DocumentRejected } from './document-rejected';

const FETCH_TIMEOUT_MS = 15_000;

export interface FetchedDocument {
  format: DocumentFileType;
  bytes: Buffer;
  /** The page's validators, for a conditional request next time (null: the server sent none). */
  etag: string | null;
  lastModified: string | null;
}

/** The validators of the version of a page already held: a server that still has it answers 304, no body. */
export interface PageValidators {
  etag: string | null;
  lastModified: string | null;
}

/**
 * Fetches a `url` document with the webhook address rules (CONTRACT.md §5): in production https only, to hosts that
 * resolve only to public addresses, checked again at connect time (so DNS rebinding cannot reach inside); redirects
 * are never followed. At most 10 MiB, within 15 s. Every refusal is a DocumentRejected naming why.
 */
export async function fetchDocument(raw: string, production: boolean): Promise<FetchedDocument> {
  const page = await fetchIfChanged(raw, production, { etag: null, lastModified: null });
  if (page === 'not-modified') throw new DocumentRejected('the URL answered 304 to a request that was not conditional');
  return page;
}

/**
 * Fetches the page again unless it is the version `held` names (`If-None-Match`, `If-Modified-Since`): 'not-modified'
 * when the server says so (304), else the page as fetchDocument reads it.
 */
export async function fetchIfChanged(raw: string, production: boolean, held: PageValidators): Promise<FetchedDocument | 'not-modified'> {
  const violation = await urlViolation(raw, production);
  if (violation) throw new DocumentRejected(violation);
  const url = new URL(raw);
  const host = urlHost(url);
  if (production && isIP(host) && !isPublicAddress(host)) throw new DocumentRejected('url must point to a public address');
  const client = url.protocol === 'https:' ? https : http;

  const conditional = {
    ...(held.etag ? { 'if-none-match': held.etag } : {}),
    ...(held.lastModified ? { 'if-modified-since': held.lastModified } : {}),
  };
  return new Promise<FetchedDocument | 'not-modified'>((resolve, reject) => {
    const fail = (message: string) => {
      clearTimeout(deadline);
      req.destroy();
      reject(new DocumentRejected(message));
    };
    // One deadline for connecting, the headers and the whole body (a trickling server cannot hold the worker).
    const deadline = setTimeout(() => fail('the URL did not answer within 15 s'), FETCH_TIMEOUT_MS);
    const req = client.get(
      url,
      {
        ...(production ? { lookup: publicOnlyLookup } : {}),
        headers: { accept: DOCUMENT_FILE_TYPES.join(', '), 'user-agent': 'Parley-DocumentFetcher/1.0', ...conditional },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status === 304 && Object.keys(conditional).length > 0) {
          clearTimeout(deadline);
          res.resume();
          return resolve('not-modified');
        }
        if (status >= 300 && status < 400) return fail(`the URL answered ${status} (a redirect); give the address it redirects to`);
        if (status < 200 || status >= 300) return fail(`the URL answered ${status}`);
        const format = documentFormat(res.headers['content-type']);
        if (!format) return fail(`the URL answered with content type "${res.headers['content-type'] ?? 'none'}"; allowed: ${DOCUMENT_FILE_TYPES.join(', ')}`);
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > DOCUMENT_FILE_MAX_BYTES) return fail('the page is larger than 10 MiB');
          chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(deadline);
          resolve({ format, bytes: Buffer.concat(chunks), etag: header(res.headers.etag), lastModified: header(res.headers['last-modified']) });
        });
        res.on('error', (err) => fail(`the page could not be read: ${err.message}`));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      if (err.code === 'ENONPUBLIC') return reject(new DocumentRejected('url must resolve only to public addresses'));
      reject(new DocumentRejected(`the URL could not be fetched (${err.code ?? err.message})`));
    });
  });
}

function header(value: string | string[] | undefined): string | null {
  const one = Array.isArray(value) ? value[0] : value;
  return one && one.length <= 512 ? one : null;
}
