import { escapeXml, formatTime, lineChart, niceTicks } from './svg.cjs';

describe('niceTicks', () => {
  it('covers the range with round steps', () => {
    expect(niceTicks(0, 97, 6)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(112, 218, 6)).toEqual([100, 150, 200, 250]);
  });
  it('survives an empty range', () => expect(niceTicks(5, 5).length).toBeGreaterThanOrEqual(2));
});

describe('formatTime', () => {
  it.each([
    [0, '0:00'],
    [65, '1:05'],
    [1800, '30:00'],
    [3725, '1:02:05'],
  ])('%d s → %s', (s, text) => expect(formatTime(s)).toBe(text));
});

describe('lineChart', () => {
  const svg = lineChart({
    title: 'Memory <RSS>',
    xLabel: 'time',
    yLabel: 'MB',
    series: [
      { name: 'gateway', points: [[0, 100], [10, 110], [20, 105]] },
      { name: 'webhook & co', points: [[0, 50], [10, null], [20, 60], [30, 61]] },
    ],
    markers: [{ x: 5, label: 'warm-up ends' }],
  });

  it('is one SVG document with title, axis labels and a legend entry per series (escaped)', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    for (const text of ['Memory &lt;RSS&gt;', '>time<', '>MB<', '>gateway<', '>webhook &amp; co<', '>warm-up ends<']) expect(svg).toContain(text);
  });

  it('draws one line per series, a gap (null) splitting a line, and a single point as a dot', () => {
    expect(svg.match(/<polyline /g)).toHaveLength(2); // gateway, and the second series after its gap
    expect(svg.match(/<circle /g)).toHaveLength(1); // the second series before its gap
  });

  it('labels the time axis in m:ss and keeps every point inside the plot', () => {
    expect(svg).toContain('>0:30<');
    const coords = [...svg.matchAll(/points="([^"]+)"/g)].flatMap((m) => m[1].split(' ').map((p) => p.split(',').map(Number)));
    for (const [x, y] of coords) {
      expect(x).toBeGreaterThanOrEqual(72);
      expect(x).toBeLessThanOrEqual(960 - 226);
      expect(y).toBeGreaterThanOrEqual(44);
      expect(y).toBeLessThanOrEqual(460 - 56);
    }
  });

  it('puts a higher value higher up', () => {
    const [first] = [...svg.matchAll(/points="([^"]+)"/g)].map((m) => m[1].split(' ').map((p) => p.split(',').map(Number)));
    expect(first[1][1]).toBeLessThan(first[0][1]); // 110 MB above 100 MB (SVG y grows downwards)
  });
});

describe('escapeXml', () => {
  it('escapes the five XML characters', () => expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;'));
});
