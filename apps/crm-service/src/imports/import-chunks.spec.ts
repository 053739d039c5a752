import { importChunks } from './import-chunks';

describe('contact import pages', () => {
  it('cuts a file into pages of at most the size that join back into it', () => {
    const text = 'phone,name\n+14155550001,"Ana, Jr."\n+14155550002,Bo\n';
    const pages = [...importChunks(text, 8)];
    expect(pages.join('')).toBe(text);
    expect(pages.every((p) => p.length > 0 && p.length <= 8)).toBe(true);
    expect(pages).toHaveLength(Math.ceil(text.length / 8));
  });

  it('never cuts a character outside the basic plane (a UTF-16 pair) in two', () => {
    // 'a😀' is three UTF-16 units: a page of 2 would end between the emoji's two halves
    const text = 'a😀b😀😀c';
    const pages = [...importChunks(text, 2)];
    expect(pages.join('')).toBe(text);
    for (const page of pages) expect(Buffer.from(page, 'utf8').toString('utf8')).toBe(page); // no lone surrogate
    expect(pages).toEqual(['a', '😀', 'b', '😀', '😀', 'c']);
  });

  it('has no page for an empty file', () => {
    expect([...importChunks('')]).toEqual([]);
  });
});
