import { commentFrame, eventFrame, retryFrame } from './sse-frame';

describe('SSE framing', () => {
  it('writes one event as id, event and a single JSON data line, ended by a blank line', () => {
    const frame = eventFrame({ id: 'evt_1', type: 'message.status', data: { status: 'sent', note: 'two\nlines' } });
    expect(frame).toBe('id: evt_1\nevent: message.status\ndata: {"status":"sent","note":"two\\nlines"}\n\n');
    expect(frame.split('\n').filter((line) => line.startsWith('data:'))).toHaveLength(1);
  });

  it('writes the retry hint and comments', () => {
    expect(retryFrame(3000)).toBe('retry: 3000\n\n');
    expect(commentFrame('keep-alive')).toBe(': keep-alive\n\n');
  });
});
