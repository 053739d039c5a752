import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brokenLinks, targetOf } from './site-links.cjs';

function site(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'docs-site-'));
  for (const [name, html] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), html);
  }
  return dir;
}

describe('targetOf', () => {
  it('maps clean URLs under the base to built files, and leaves other origins and the gateway\'s own pages alone', () => {
    expect(targetOf('/guide/quickstart', 'index.html', '/guide/')).toEqual({ file: 'quickstart.html', fragment: '' });
    expect(targetOf('/guide/', 'index.html', '/guide/')).toEqual({ file: 'index.html', fragment: '' });
    expect(targetOf('/guide/guides/webhooks#retries', 'index.html', '/guide/')).toEqual({ file: 'guides/webhooks.html', fragment: 'retries' });
    expect(targetOf('./llm#an-llm', 'guides/agents.html', '/guide/')).toEqual({ file: 'guides/llm.html', fragment: 'an-llm' });
    expect(targetOf('#skills', 'guides/agents.html', '/guide/')).toEqual({ file: 'guides/agents.html', fragment: 'skills' });
    expect(targetOf('/guide/assets/style.abc.css', 'index.html', '/guide/')).toEqual({ file: 'assets/style.abc.css', fragment: '' });
    for (const href of ['https://www.standardwebhooks.com/', 'mailto:a@b.c', '/docs', '/dashboard/inbox', '//cdn.example/x.js']) {
      expect(targetOf(href, 'index.html', '/guide/')).toBeUndefined();
    }
  });
});

describe('brokenLinks', () => {
  it('finds a link to a missing page and one to a missing heading, and passes the rest', () => {
    const dir = site({
      'index.html': '<a href="/guide/quickstart">ok</a><a href="/guide/quickstart#step-2">ok</a><a href="/guide/missing">x</a>',
      'quickstart.html': '<h2 id="step-2">2</h2><a href="#step-3">x</a><a href="https://example.com">ext</a>',
    });
    expect(brokenLinks(dir)).toEqual([
      { page: 'index.html', href: '/guide/missing', reason: 'no missing.html' },
      { page: 'quickstart.html', href: '#step-3', reason: 'no #step-3 on quickstart.html' },
    ]);
  });
});
