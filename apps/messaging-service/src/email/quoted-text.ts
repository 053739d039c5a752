/**
 * The new part of an email reply: quoted history ("> …" lines, and everything from an "On … wrote:" line or an
 * Outlook "-----Original Message-----" / "From: … Sent: …" header on) is cut off, and so is a "-- " signature, so
 * the agent reads what the customer wrote now and not the thread it came with.
 */
export function stripQuotedHistory(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trim();
    if (/^-{2,}\s*Original Message\s*-{2,}$/i.test(trimmed) || /^_{5,}$/.test(trimmed)) break;
    if (line === '-- ' || trimmed === '--') break;
    // "On Mon, 1 Jan 2026, Ana <ana@example.com> wrote:" (mail clients may wrap it over two lines).
    if (/^On\b.*\bwrote:$/i.test(trimmed) || (/^On\b/i.test(trimmed) && /\bwrote:$/i.test((lines[i + 1] ?? '').trim()))) break;
    if (/^From:\s/i.test(trimmed) && lines.slice(i + 1, i + 4).some((l) => /^(Sent|Date):\s/i.test(l.trim()))) break;
    if (trimmed.startsWith('>')) continue;
    kept.push(line);
  }
  return kept.join('\n').trim();
}
