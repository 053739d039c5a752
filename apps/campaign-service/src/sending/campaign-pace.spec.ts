import { campaignPace } from './campaign-pace';

describe('campaignPace', () => {
  it('leaves a quarter of the number limit to replies', () => {
    expect(campaignPace(200, { provider: 'meta', send_limit_per_second: 80 })).toBe(60);
    expect(campaignPace(200, { provider: 'meta', send_limit_per_second: null })).toBe(60);
    expect(campaignPace(20, { provider: 'meta', send_limit_per_second: 80 })).toBe(20);
    expect(campaignPace(5, { provider: 'sandbox', send_limit_per_second: 1 })).toBe(1);
  });

  it('keeps the requested pace where no limit is known', () => {
    expect(campaignPace(300, { provider: 'sandbox', send_limit_per_second: null })).toBe(300);
    expect(campaignPace(300, null)).toBe(300);
  });
});
