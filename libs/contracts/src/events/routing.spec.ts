import { Headers } from './envelope';
import { campaignFromHeader, campaignHeader, routingHeaders } from './routing';

const outbound = (data: Record<string, unknown>) => ({ id: 'evt_1', type: 'message.outbound', version: 1, tenant_id: 'ten_1', occurred_at: '2026-12-07T00:00:00Z', data });

describe('routingHeaders', () => {
  it("says whether a message.outbound is a campaign's and its origin, and adds nothing to other events", () => {
    expect(routingHeaders(outbound({ message_id: 'msg_1', campaign_id: 'cmp_1', origin: 'api' }))).toEqual({ [Headers.Campaign]: 'yes', [Headers.Origin]: 'api' });
    expect(routingHeaders(outbound({ message_id: 'msg_2', origin: 'agent' }))).toEqual({ [Headers.Campaign]: 'no', [Headers.Origin]: 'agent' });
    expect(routingHeaders(outbound({ message_id: 'msg_2' }))).toEqual({ [Headers.Campaign]: 'no' });
    expect(routingHeaders({ ...outbound({ message_id: 'msg_3' }), type: 'message.status' })).toEqual({});
  });

  it('reads the campaign header back as true, false or unknown, and says an unknown fact by no header at all', () => {
    for (const [header, fact] of [['yes', true], ['no', false], [undefined, null], ['maybe', null]] as const) {
      expect(campaignFromHeader(header)).toBe(fact);
    }
    expect([true, false, null, undefined].map(campaignHeader)).toEqual(['yes', 'no', undefined, undefined]);
  });
});
