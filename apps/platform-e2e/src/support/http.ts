/** One answer of the API, with the body parsed when it is JSON. */
export interface HttpResponse<T> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  /** Sent as JSON. */
  json?: unknown;
  /** Bearer credential (access token or API key). */
  token?: string;
  headers?: Record<string, string>;
}

/** A tenant's HTTP call, as curl would make it: nothing of the services' code is used. */
export async function http<T = unknown>(method: string, url: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await fetch(url, {
    method,
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const body = (type.includes('json') && text ? JSON.parse(text) : text) as T;
  return { status: res.status, headers: res.headers, body, text };
}
