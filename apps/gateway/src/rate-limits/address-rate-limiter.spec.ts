import { isLoopback } from './address-rate-limiter';

describe('isLoopback', () => {
  it('knows IPv4, IPv6 and IPv4-mapped loopback addresses', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(address)).toBe(true);
  });

  it('refuses everything else, including look-alikes', () => {
    for (const address of ['10.0.0.1', '192.168.1.1', '::ffff:10.0.0.1', '2001:db8::1', '127.0.0.1.example.com', '']) expect(isLoopback(address)).toBe(false);
  });
});
