import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup } from 'node:dns';
import { lookup as lookupAsync } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './address-policy';

/** Resolves a host name to every address it has (A and AAAA). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => (await lookupAsync(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** The host of a URL without IPv6 brackets. */
export function urlHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Why a webhook URL is not allowed (a message for the `url` field), or null when it is (CONTRACT.md §5).
 * Production: https only, and the host must resolve only to public addresses. Development also allows http and
 * private or loopback addresses, so a local receiver works. The messages never echo resolved addresses, so the
 * check cannot be used to map internal DNS.
 */
export async function urlViolation(raw: string, production: boolean, resolve: Resolver = systemResolver): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute http(s) URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url must be an absolute http(s) URL';
  if (!production) return null;
  if (url.protocol !== 'https:') return 'url must use https';
  const host = urlHost(url);
  if (isIP(host)) return isPublicAddress(host) ? null : 'url must point to a public address, not a private, loopback or reserved one';
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return `url host "${host}" does not resolve`;
  }
  if (addresses.length === 0) return `url host "${host}" does not resolve`;
  if (!addresses.every(isPublicAddress)) return `url host "${host}" must resolve only to public addresses`;
  return null;
}

/** Raised at connect time when a host resolves to a non-public address (DNS changed since it was checked). */
export class NonPublicAddressError extends Error {
  readonly code = 'ENONPUBLIC';
  constructor(hostname: string) {
    super(`${hostname} resolves to a non-public address`);
    this.name = 'NonPublicAddressError';
  }
}

/**
 * A `lookup` for node:http(s) that refuses hosts resolving to any non-public address. The connection then uses
 * exactly the addresses that were checked, so DNS rebinding between check and connect is impossible.
 * (IP literals never reach a lookup; the sender checks those itself.)
 */
export const publicOnlyLookup: LookupFunction = (hostname, options: LookupOptions, callback) => {
  lookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    if (addresses.length === 0 || !addresses.every((a) => isPublicAddress(a.address))) return callback(new NonPublicAddressError(hostname), '', 0);
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
};
