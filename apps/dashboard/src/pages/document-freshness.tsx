import { useEffect, useState } from 'react';
import type { AgentDocument, DocumentRefresh } from '../api';
import { formatAgo, formatTime, formatUntil } from '../components/format';

/** The choices of "Keep it up to date", as an owner reads them. */
export const REFRESH_CHOICES: readonly { value: DocumentRefresh; label: string }[] = [
  { value: 'off', label: 'No, fetch it once' },
  { value: 'daily', label: 'Check every day' },
  { value: 'weekly', label: 'Check every week' },
];

const SCHEDULE: Record<DocumentRefresh, string> = { off: '', daily: 'Checked daily', weekly: 'Checked weekly' };
const OUTCOME = { unchanged: 'no change', updated: 'updated', failed: 'failed' } as const;

/**
 * Why a check of the page failed, in words (the API's reasons, CONTRACT.md §19, are written for developers: "the URL
 * answered 404", "the URL could not be fetched (ENOTFOUND)"). A reason not known here is shown as the API gives it.
 */
const REASONS: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^the URL answered (404|410)\b/, (m) => `the page is not there any more (the website answered ${m[1]})`],
  [/^the URL answered (3\d\d) \(a redirect\)/, () => 'the page now sends visitors to another address; add that address as a new document'],
  [/^the URL answered (401|403)\b/, (m) => `the website did not let us in (it answered ${m[1]})`],
  [/^the URL answered 429\b/, () => 'the website asked us to come back later'],
  [/^the URL answered (5\d\d)\b/, (m) => `the website had a problem of its own (it answered ${m[1]})`],
  [/^the URL answered (\d{3})$/, (m) => `the website answered with error ${m[1]}`],
  [/^the URL answered with content type/, () => 'the address no longer gives a web page, text or PDF'],
  [/^the URL did not answer within (\d+) s/, (m) => `the website did not answer within ${m[1]} seconds`],
  [/\((ENOTFOUND|EAI_AGAIN)\)/, () => 'the website’s address could not be found'],
  [/\(ECONNREFUSED\)/, () => 'the website refused the connection'],
  [/\((ECONNRESET|EPIPE)\)/, () => 'the connection to the website broke off'],
  [/\((CERT_\w+|\w*_CERT\w*|UNABLE_TO_\w+|ERR_TLS_\w+)\)/, () => 'the website’s security certificate is not valid'],
  [/^the page is larger than (\d+) MiB/, (m) => `the page is now larger than ${m[1]} MB`],
  [/^the document has more than (\d+) MiB of text/, (m) => `the page now has more than ${m[1]} MB of text`],
  [/^the page has no text any more/, () => 'the page has no text any more'],
  [/public address/, () => 'the address no longer leads to a public website'],
];

/** "the URL answered 404" → "the page is not there any more (the website answered 404)". */
export function refreshFailureText(error: string | undefined): string {
  if (!error) return 'the page could not be read';
  for (const [pattern, say] of REASONS) {
    const match = pattern.exec(error);
    if (match) return say(match);
  }
  return error.replace(/[.;\s]+$/, '');
}

/** The time now, again every minute (so "3 h ago" stays true while the page is open). */
function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * How a web page document stays fresh: "Checked daily · last checked 3 h ago: no change · next check in 20 h", and a
 * failed check as a warning with its reason. Nothing for a document fetched once (or not ready: it is not checked).
 */
export function DocumentFreshness({ document: d }: { document: AgentDocument }) {
  return d.refresh === 'off' || d.status !== 'ready' ? null : <Checks document={d} />;
}

function Checks({ document: d }: { document: AgentDocument }) {
  const now = useNow();
  const last = d.last_refresh;
  const parts = [SCHEDULE[d.refresh]];
  if (last) parts.push(`last checked ${formatAgo(last.at, now)}: ${OUTCOME[last.status]}`);
  if (d.next_refresh_at) parts.push(`${last ? 'next check' : 'first check'} ${formatUntil(d.next_refresh_at, now)}`);
  return (
    <>
      <span className="block small muted" data-testid="document-freshness" title={last ? `Last checked ${formatTime(last.at)}` : undefined}>
        {parts.join(' · ')}
      </span>
      {last?.status === 'failed' && (
        <span className="block small notice notice-warning">
          <span aria-hidden="true">⚠ </span>
          The last check failed: {refreshFailureText(last.error)}. We keep the last good version, so the agent still answers from it.
        </span>
      )}
    </>
  );
}
