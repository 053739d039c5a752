import { mailAuthentication } from './mail-authentication';

describe('mailAuthentication', () => {
  it('reads SPF, DKIM and DMARC from Authentication-Results, folded lines included', () => {
    const line = 'Authentication-Results: mx.google.com;\r\n       dkim=pass header.i=@example.com header.s=s1;\r\n       spf=softfail (sender IP is 192.0.2.1) smtp.mailfrom=ana@example.com;\r\n       dmarc=fail (p=NONE) header.from=example.com';
    expect(mailAuthentication([{ key: 'authentication-results', line }])).toEqual({ spf: 'softfail', dkim: 'pass', dmarc: 'fail', authserv_id: 'mx.google.com' });
  });

  it('takes the topmost Authentication-Results (the nearest hop)', () => {
    const lines = [
      { key: 'authentication-results', line: 'Authentication-Results: relay.acme.test; spf=pass smtp.mailfrom=example.com' },
      { key: 'authentication-results', line: 'Authentication-Results: far.away.test; spf=fail smtp.mailfrom=example.com' },
    ];
    expect(mailAuthentication(lines)).toMatchObject({ spf: 'pass', authserv_id: 'relay.acme.test' });
  });

  it('falls back on Received-SPF for SPF', () => {
    const line = 'Received-SPF: Pass (mailfrom) identity=mailfrom; client-ip=192.0.2.1; envelope-from=ana@example.com';
    expect(mailAuthentication([{ key: 'received-spf', line }])).toEqual({ spf: 'pass', dkim: null, dmarc: null, authserv_id: null });
  });

  it('is null for a mail without either header', () => {
    expect(mailAuthentication([{ key: 'subject', line: 'Subject: spf=pass' }])).toBeNull();
  });

  it('does not read a method inside another word', () => {
    expect(mailAuthentication([{ key: 'authentication-results', line: 'Authentication-Results: mx.test; x-nospf=pass; dkim=none' }])).toMatchObject({ spf: null, dkim: 'none' });
  });
});
