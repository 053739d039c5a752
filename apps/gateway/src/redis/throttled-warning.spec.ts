import type { Logger } from '@nestjs/common';
import { throttledWarning } from './throttled-warning';

describe('throttledWarning', () => {
  it('logs once per interval and counts what it skipped', () => {
    let now = 0;
    const logger = { warn: jest.fn() } as unknown as Logger;
    const warn = throttledWarning(logger, 1000, () => now);
    warn('a');
    warn('b');
    now = 999;
    warn('c');
    now = 1000;
    warn('d');
    expect((logger.warn as jest.Mock).mock.calls).toEqual([['a'], ['d (and 2 more like it)']]);
  });
});
