import { isPublicAddress } from './address-policy';
import { urlViolation, type Resolver } from './url-policy';

const resolveTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses;
const unresolvable: Resolver = async () => {
  throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
};

describe('address policy', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '192.0.2.10',
    '198.18.0.1',
    '203.0.113.5',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '2001:db8::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '0:0:0:0:0:ffff:c0a8:0101',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    '::ffff:0:7f00:1',
    '::127.0.0.1',
    '0:0:0:0:0:0:0:1',
    '[0:0:0:0:0:0:0:1]',
    '::ffff:169.254.169.254',
    'fd00:ec2::254',
    'fdff:ffff::1',
    'febf::1',
    '100.127.255.254',
    '10.255.255.255',
    '192.168.255.255',
    '0177.0.0.1',
    '2130706433',
    '',
    'not-an-ip',
  ])('refuses %s', (ip) => expect(isPublicAddress(ip)).toBe(false));

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001:81b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'accepts %s',
    (ip) => expect(isPublicAddress(ip)).toBe(true),
  );
});

describe('webhook URL rules', () => {
  describe('in production', () => {
    it('accepts https to a host that resolves only to public addresses', async () => {
      expect(await urlViolation('https://hooks.example.com/parley', true, resolveTo('93.184.216.34', '2606:2800:220:1::1'))).toBeNull();
      expect(await urlViolation('https://8.8.8.8/x', true, unresolvable)).toBeNull();
    });

    it('refuses http', async () => {
      expect(await urlViolation('http://hooks.example.com/', true, resolveTo('93.184.216.34'))).toBe('url must use https');
    });

    it.each([
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://10.0.0.8:8443/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://0x7f.1/',
      'https://2130706433/',
      'https://0177.0.0.1/',
      'https://017700000001/',
      'https://0x7f000001/',
      'https://127.1/',
      'https://0/',
      'https://0.0.0.0/',
      'https://[::]/',
      'https://[0:0:0:0:0:0:0:1]/',
      'https://[::ffff:7f00:1]/',
      'https://[::ffff:0:7f00:1]/',
      'https://[64:ff9b::7f00:1]/',
      'https://[fe80::1]/',
      'https://[fc00::1]/',
      'https://[fd00:ec2::254]/latest/meta-data',
      'https://172.16.0.1/',
      'https://172.31.255.255/',
      'https://192.168.0.1/',
      'https://100.64.0.1/',
      'https://169.254.0.1/',
      'https://user:pass@127.0.0.1/',
    ])('refuses the non-public literal address %s', async (url) => {
      expect(await urlViolation(url, true, resolveTo('93.184.216.34'))).toMatch(/public address/);
    });

    it('refuses a host that resolves to any non-public address', async () => {
      expect(await urlViolation('https://internal.example.com/', true, resolveTo('10.0.0.5'))).toMatch(/must resolve only to public addresses/);
      expect(await urlViolation('https://mixed.example.com/', true, resolveTo('93.184.216.34', '::1'))).toMatch(/must resolve only to public/);
      expect(await urlViolation('https://localhost/', true, resolveTo('127.0.0.1', '::1'))).toMatch(/must resolve only to public/);
    });

    it('refuses names the real resolver maps to loopback (localhost and its spellings)', async () => {
      for (const url of ['https://localhost/', 'https://LOCALHOST:8443/x', 'https://localhost./']) {
        expect(await urlViolation(url, true)).toMatch(/must resolve only to public addresses|does not resolve/);
      }
    });

    it('refuses a host that does not resolve, and never echoes resolved addresses', async () => {
      expect(await urlViolation('https://nowhere.invalid/', true, unresolvable)).toBe('url host "nowhere.invalid" does not resolve');
      expect(await urlViolation('https://empty.example.com/', true, resolveTo())).toMatch(/does not resolve/);
      expect(await urlViolation('https://internal.example.com/', true, resolveTo('10.0.0.5'))).not.toContain('10.0.0.5');
    });
  });

  describe('in development', () => {
    it.each(['http://127.0.0.1:4000/hook', 'http://localhost:3999/', 'https://10.0.0.8/', 'http://[::1]:8080/x', 'https://hooks.example.com/'])(
      'allows %s without resolving it',
      async (url) => {
        expect(await urlViolation(url, false, unresolvable)).toBeNull();
      },
    );
  });

  it('refuses what is not an absolute http(s) URL in either mode', async () => {
    for (const production of [true, false]) {
      expect(await urlViolation('ftp://example.com/', production, resolveTo('93.184.216.34'))).toBe('url must be an absolute http(s) URL');
      expect(await urlViolation('/relative', production, resolveTo('93.184.216.34'))).toBe('url must be an absolute http(s) URL');
    }
  });
});
