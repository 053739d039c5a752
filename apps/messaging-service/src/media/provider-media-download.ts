import type { ProviderSender } from '../providers/whatsapp-provider';

/** The largest file WhatsApp lets a customer send (documents, 100 MiB). */
const MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 60_000;

export interface DownloadedMedia {
  data: Buffer;
  mimeType: string;
}

/** Where a provider's media routes are, by provider. */
export interface MediaEndpoints {
  graphBaseUrl: string;
  graphVersion: string;
  sandboxUrl: string;
  d360BaseUrl: string;
}

/**
 * Downloads a customer's file as the Cloud API serves it: `GET /{media_id}` (with the channel's token) answers its
 * `url`, and `GET url` with the same token answers the bytes. 360dialog proxies both under its own host.
 * Throws on anything but the bytes (the caller retries with back-off).
 */
export async function downloadProviderMedia(sender: ProviderSender, providerMediaId: string, endpoints: MediaEndpoints): Promise<DownloadedMedia> {
  const d360 = sender.provider === '360dialog';
  const auth: Record<string, string> = d360 ? { 'D360-API-KEY': sender.accessToken } : { authorization: `Bearer ${sender.accessToken}` };
  const infoUrl = d360
    ? `${endpoints.d360BaseUrl}/${encodeURIComponent(providerMediaId)}`
    : `${sender.provider === 'sandbox' ? endpoints.sandboxUrl : endpoints.graphBaseUrl}/${endpoints.graphVersion}/${encodeURIComponent(providerMediaId)}`;
  const info = await fetch(infoUrl, { headers: auth, signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  if (!info.ok) throw new Error(`media info ${providerMediaId}: HTTP ${info.status}`);
  const { url, mime_type } = (await info.json()) as { url?: unknown; mime_type?: unknown };
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Error(`media info ${providerMediaId}: no download url`);
  // 360dialog: the Meta URL's path and query, fetched through 360dialog's host.
  const fileUrl = d360 ? `${endpoints.d360BaseUrl}${new URL(url).pathname}${new URL(url).search}` : url;
  const file = await fetch(fileUrl, { headers: auth, redirect: 'error', signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  if (!file.ok) throw new Error(`media download ${providerMediaId}: HTTP ${file.status}`);
  const declared = Number(file.headers.get('content-length') ?? '0');
  if (declared > MAX_DOWNLOAD_BYTES) throw new Error(`media download ${providerMediaId}: ${declared} bytes is over the limit`);
  const data = Buffer.from(await file.arrayBuffer());
  if (data.length > MAX_DOWNLOAD_BYTES) throw new Error(`media download ${providerMediaId}: over the limit`);
  const mimeType = typeof mime_type === 'string' && mime_type ? mime_type : (file.headers.get('content-type') ?? 'application/octet-stream');
  return { data, mimeType: mimeType.split(';')[0].trim().toLowerCase() };
}
