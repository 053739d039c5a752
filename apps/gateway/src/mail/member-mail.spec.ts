import { escapeHtml, invitationMail, mailDate, passwordResetMail, subjectLine } from './member-mail';
import { mailRetryDelayMs } from './platform-mail';
import { mailFailure } from './smtp-mailer';

const url = 'https://app.parley.example/dashboard/accept-invite?token=AbC_-123';
const expiresAt = new Date('2026-12-03T14:05:00Z');

describe('the platform’s mail', () => {
  describe('invitationMail', () => {
    const mail = invitationMail({ business: 'Fjord Bikes', invitee: { name: 'Kari' }, inviter: { name: 'Olivia', email: 'olivia@fjord.example' }, role: 'agent', url, expiresAt });

    it('names the business and the inviter in the subject, and carries the link in both parts', () => {
      expect(mail.subject).toBe('Olivia invited you to join Fjord Bikes on Parley');
      expect(mail.text).toContain('Hello Kari,');
      expect(mail.text).toContain('Olivia (olivia@fjord.example) invited you to join Fjord Bikes on Parley as an agent (answering customers in the inbox).');
      expect(mail.text).toContain(`\n${url}\n`);
      expect(mail.text).toContain('until Thursday 3 December 2026, 14:05 UTC');
      expect(mail.html).toContain(`<a href="${url}"`);
      expect(mail.html).toContain('<strong>Fjord Bikes</strong>');
      expect(mail.html).toContain('<strong>Olivia</strong> (olivia@fjord.example)');
    });

    it('says who invited when a program did: someone at the business', () => {
      const byProgram = invitationMail({ business: 'Fjord Bikes', invitee: { name: 'Kari' }, inviter: null, role: 'admin', url, expiresAt });
      expect(byProgram.subject).toBe('You are invited to join Fjord Bikes on Parley');
      expect(byProgram.text).toContain('Someone at the business invited you to join Fjord Bikes on Parley as an admin');
    });

    it('escapes what people typed in the HTML part, and keeps the subject on one line', () => {
      const hostile = invitationMail({
        business: 'Bikes <script>alert(1)</script> & "Co"',
        invitee: { name: '<img src=x onerror=alert(2)>' },
        inviter: { name: 'Eve\r\nBcc: victim@example.com', email: 'eve@example.com' },
        role: 'owner',
        url: 'https://app.parley.example/dashboard/accept-invite?token=a"b<c',
        expiresAt,
      });
      expect(hostile.html).not.toMatch(/<script|<img/);
      expect(hostile.html).toContain('Bikes &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
      expect(hostile.html).toContain('href="https://app.parley.example/dashboard/accept-invite?token=a&quot;b&lt;c"');
      expect(hostile.subject).toBe('Eve Bcc: victim@example.com invited you to join Bikes <script>alert(1)</script> & "Co" on Parley');
      expect(hostile.subject).not.toMatch(/[\r\n]/);
    });
  });

  it('passwordResetMail names the business and carries the single-use link in both parts', () => {
    const mail = passwordResetMail({ business: 'Fjord Bikes', member: { name: 'Kari' }, url, expiresAt });
    expect(mail.subject).toBe('Reset your Parley password for Fjord Bikes');
    expect(mail.text).toContain(url);
    expect(mail.html).toContain(`href="${url}"`);
    expect(mail.text).toContain('If you did not ask for it, ignore this email');
  });

  it('escapes, one-lines and dates', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(subjectLine(`  a\tb\r\n\u0007c  ${'x'.repeat(300)}`)).toHaveLength(200);
    expect(subjectLine('a\r\nb')).toBe('a b');
    expect(mailDate(new Date('2027-01-01T00:00:00Z'))).toBe('Friday 1 January 2027, 00:00 UTC');
  });

  it('retries on the schedule, its last pause repeating', () => {
    expect([1, 2, 3, 4, 9].map((attempt) => mailRetryDelayMs([100, 200, 300], attempt))).toEqual([100, 200, 300, 300, 300]);
  });

  it('retries a 4xx answer and an unreachable server; a 5xx refusal is final', () => {
    expect(mailFailure({ responseCode: 451, response: '451 4.3.0 try again later' })).toMatchObject({ transient: true, message: 'the SMTP server answered 451 4.3.0 try again later' });
    expect(mailFailure({ responseCode: 550, response: '550 5.1.1 no such user' })).toMatchObject({ transient: false });
    expect(mailFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:2526'), { code: 'ESOCKET' }))).toMatchObject({
      transient: true,
      message: 'the SMTP server could not be reached (ESOCKET: connect ECONNREFUSED 127.0.0.1:2526)',
    });
  });
});
