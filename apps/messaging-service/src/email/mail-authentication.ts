/** What the receiving side's checks said of a mail (RFC 8601 `Authentication-Results`, RFC 7208 `Received-SPF`). */
export interface MailAuthentication {
  spf: string | null;
  dkim: string | null;
  dmarc: string | null;
  /** Who stated them: the `authserv-id` of the Authentication-Results header read. */
  authserv_id: string | null;
}

/** One header line as mailparser keeps it: `key` lower-cased, `line` the raw `Name: value` (folded lines included). */
export interface HeaderLine {
  key: string;
  line: string;
}

const RESULT = (method: string) => new RegExp(`(?:^|[;\\s])${method}\\s*=\\s*([a-z]+)`, 'i');

/**
 * The SPF, DKIM and DMARC results a mail carries, or null when it carries none. They are recorded, not enforced: only a
 * relay in front of our listener (which strips any a sender forged) makes them trustworthy. The topmost header is the
 * nearest hop's, so it wins (RFC 8601 §5); `Received-SPF` stands in for a missing `spf=`.
 */
export function mailAuthentication(headerLines: readonly HeaderLine[]): MailAuthentication | null {
  const value = (line: string) => line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim();
  const results = headerLines.find((h) => h.key === 'authentication-results');
  const receivedSpf = headerLines.find((h) => h.key === 'received-spf');
  if (!results && !receivedSpf) return null;
  const text = results ? value(results.line) : '';
  const read = (method: string) => RESULT(method).exec(text)?.[1]?.toLowerCase() ?? null;
  const spfHeader = receivedSpf ? (/^([a-z]+)/i.exec(value(receivedSpf.line))?.[1]?.toLowerCase() ?? null) : null;
  return {
    spf: read('spf') ?? spfHeader,
    dkim: read('dkim'),
    dmarc: read('dmarc'),
    authserv_id: results ? (/^([^;\s]+)/.exec(text)?.[1] ?? null) : null,
  };
}
