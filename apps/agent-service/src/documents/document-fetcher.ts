import { DOCUMENT_FILE_MAX_BYTES, DOCUMENT_FILE_TYPES, type DocumentFileType } from '@parley/contracts';
import { isPublicAddress, publicOnlyLookup, urlHost, urlViolation } from '@parley/service-kit';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { documentFormat } from './document-formats';
import { DocumentRejected } from './document-rejected';

const FETCH_TIMEOUT_MS = 15_000;
/** How the fetcher names itself (robots.txt rules for it apply). */
export const USER_AGENT = 'Parley-DocumentFetcher/1.0';

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

/** What a guarded GET answered: its status, headers and body (empty for a 304). */
interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
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
  const conditional = {
    ...(held.etag ? { 'if-none-match': held.etag } : {}),
    ...(held.lastModified ? { 'if-modified-since': held.lastModified } : {}),
  };
  const answer = await guardedGet(raw, production, { accept: DOCUMENT_FILE_TYPES.join(', '), ...conditional }, DOCUMENT_FILE_MAX_BYTES, (status, headers) => {
    if (status === 304 && Object.keys(conditional).length > 0) return null;
    if (status >= 300 && status < 400) return `the URL answered ${status} (a redirect); give the address it redirects to`;
    if (status < 200 || status >= 300) return `the URL answered ${status}`;
    if (!documentFormat(headers['content-type'])) return `the URL answered with content type "${headers['content-type'] ?? 'none'}"; allowed: ${DOCUMENT_FILE_TYPES.join(', ')}`;
    return null;
  });
  if (answer.status === 304) return 'not-modified';
  return { format: documentFormat(answer.headers['content-type'])!, bytes: answer.body, etag: header(answer.headers.etag), lastModified: header(answer.headers['last-modified']) };
}

/**
 * A text resource under the same rules (a sitemap, robots.txt): its body when it answered 2xx, null for a 404 or 410
 * (robots.txt: none, so everything is allowed), a DocumentRejected otherwise.
 */
export async function fetchText(raw: string, production: boolean, maxBytes: number): Promise<string | null> {
  const answer = await guardedGet(raw, production, { accept: 'application/xml, text/xml, text/plain;q=0.9, */*;q=0.5' }, maxBytes, (status) => {
    if (status === 404 || status === 410) return null;
    if (status >= 300 && status < 400) return `the URL answered ${status} (a redirect); give the address it redirects to`;
    if (status < 200 || status >= 300) return `the URL answered ${status}`;
    return null;
  });
  return answer.status === 404 || answer.status === 410 ? null : answer.body.toString('utf8');
}

/**
 * One GET under the address rules; `refuse` looks at the status and headers before the body is read and names why the
 * answer is not usable (null: read it). Within 15 s in all, at most `maxBytes` of body.
 */
async function guardedGet(
  raw: string,
  production: boolean,
  headers: Record<string, string>,
  maxBytes: number,
  refuse: (status: number, headers: http.IncomingHttpHeaders) => string | null,
): Promise<Answer> {
  const violation = await urlViolation(raw, production);
  if (violation) throw new DocumentRejected(violation);
  const url = new URL(raw);
  const host = urlHost(url);
  if (production && isIP(host) && !isPublicAddress(host)) throw new DocumentRejected('url must point to a public address');
  const client = url.protocol === 'https:' ? https : http;

  return new Promise<Answer>((resolve, reject) => {
    const fail = (message: string) => {
      clearTimeout(deadline);
      req.destroy();
      reject(new DocumentRejected(message));
    };
    // One deadline for connecting, the headers and the whole body (a trickling server cannot hold the worker).
    const deadline = setTimeout(() => fail('the URL did not answer within 15 s'), FETCH_TIMEOUT_MS);
    const req = client.get(url, { ...(production ? { lookup: publicOnlyLookup } : {}), headers: { 'user-agent': USER_AGENT, ...headers } }, (res) => {
      const status = res.statusCode ?? 0;
      const refusal = refuse(status, res.headers);
      if (refusal) return fail(refusal);
      if (status === 304 || status === 404 || status === 410) {
        clearTimeout(deadline);
        res.resume();
        return resolve({ status, headers: res.headers, body: Buffer.alloc(0) });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return fail(`the page is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB`);
        chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(deadline);
        resolve({ status, headers: res.headers, body: Buffer.concat(chunks) });
      });
      res.on('error', (err) => fail(`the page could not be read: ${err.message}`));
    });
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


