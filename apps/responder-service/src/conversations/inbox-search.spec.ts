import { lastCustomerMessageAfter } from '../replies/burst.store';
import type { Turn } from './conversations.service';
import { MAX_SEARCH_TERMS, searchConfigOf, searchTerms, termQuerySql } from './inbox-search';

describe('inbox search', () => {
  it('stems a conversation’s words in its language, and in none (simple) until it is known', () => {
    expect(['en', 'es', 'pt', 'fr', 'de'].map(searchConfigOf)).toEqual(['english', 'spanish', 'portuguese', 'french', 'german']);
    expect(searchConfigOf(undefined)).toBe('simple');
    expect(searchConfigOf('it')).toBe('simple');
    expect(searchConfigOf("english'); DROP TABLE x; --")).toBe('simple');
  });

  it('reads a query as its words: letters and digits of any script, lower-case, once each, at most eight', () => {
    expect(searchTerms('  Batería  de MI bici!! ')).toEqual(['batería', 'de', 'mi', 'bici']);
    expect(searchTerms("o'neil & (warranty | !refund) <-> 'x':*")).toEqual(['o', 'neil', 'warranty', 'refund', 'x']);
    expect(searchTerms('Fahrräder FAHRRÄDER fahrräder')).toEqual(['fahrräder']);
    expect(searchTerms('+1 (415) 555-0123')).toEqual(['1', '415', '555', '0123']);
    expect(searchTerms('a b c d e f g h i j')).toHaveLength(MAX_SEARCH_TERMS);
    expect(searchTerms('!!! ***')).toEqual([]);
    expect(searchTerms('½ ²')).toEqual([]);
  });

  it('asks for a term as a prefix of the word as written, or its stem in any of the five languages, through its parameter only', () => {
    const sql = termQuerySql('$1', 'warr');
    expect(sql).toContain(`to_tsquery('simple', quote_literal(coalesce(nullif(search_unaccent($1), ''), $1)) || ':*')`);
    for (const config of ['english', 'spanish', 'portuguese', 'french', 'german']) expect(sql).toContain(`plainto_tsquery('${config}', search_unaccent($1))`);
    expect(sql).not.toContain('warr');
    // Too short for a prefix: "tv" would find every word it starts.
    expect(termQuerySql('$2', 'tv')).toContain(`plainto_tsquery('simple', search_unaccent($2))`);
    expect(termQuerySql('$2', 'tv')).not.toContain(':*');
  });
});

describe('lastCustomerMessageAfter', () => {
  const turn = (role: Turn['role'], text: string, at: string): Turn => ({ messageId: `msg_${text}`, role, author: null, text, at: new Date(at) });
  const kept = { text: 'earlier', author: { type: 'customer' as const }, at: '2026-01-01T10:00:00.000Z' };

  it('is the newest of the burst’s customer messages, never the business’s', () => {
    const turns = [turn('customer', 'first', '2026-01-01T10:01:00Z'), turn('customer', 'second', '2026-01-01T10:02:00Z'), turn('agent', 'answer', '2026-01-01T10:03:00Z')];
    expect(lastCustomerMessageAfter(kept, turns)).toEqual({ text: 'second', author: { type: 'customer' }, at: '2026-01-01T10:02:00.000Z' });
    expect(lastCustomerMessageAfter(null, [turn('customer', 'hi', '2026-01-01T09:00:00Z')])).toMatchObject({ text: 'hi' });
  });

  it('keeps what it had when the burst has no customer message, or only an older one (a late redelivery)', () => {
    expect(lastCustomerMessageAfter(kept, [turn('member', 'reply', '2026-01-01T11:00:00Z')])).toBe(kept);
    expect(lastCustomerMessageAfter(kept, [turn('customer', 'old', '2026-01-01T09:59:00Z')])).toBe(kept);
    expect(lastCustomerMessageAfter(null, [])).toBeNull();
  });
});
