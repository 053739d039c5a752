import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateCannedReplyBody, UpdateCannedReplyBody, unknownCannedReplyVariables } from './canned-replies.dto';
import { UpdateDealBody } from './deals.dto';
import { isCalendarDate } from './validators';

const fieldsOf = <T extends object>(Dto: new () => T, body: object) => validateSync(plainToInstance(Dto, body)).map((e) => e.property);

describe('canned reply bodies (CONTRACT.md §18)', () => {
  it('names the variables a text holds that are not {{contact.name}} or {{agent.name}}', () => {
    expect(unknownCannedReplyVariables('Hi {{contact.name}}, {{ agent.name }} here')).toEqual([]);
    expect(unknownCannedReplyVariables('Hi {{contact.phone}} {{contact.phone}} {{ customer }}')).toEqual(['contact.phone', 'customer']);
    expect(unknownCannedReplyVariables('Braces { alone } and {{}} too')).toEqual(['']);
  });

  it('accepts a typable shortcut and a text with known variables, and names the field that breaks a rule', () => {
    expect(fieldsOf(CreateCannedReplyBody, { shortcut: 'opening-hours_2', text: 'Hi {{contact.name}}' })).toEqual([]);
    expect(fieldsOf(CreateCannedReplyBody, { shortcut: 'Opening hours', text: 'x' })).toEqual(['shortcut']);
    expect(fieldsOf(CreateCannedReplyBody, { shortcut: 'ok', text: 'Your order {{order.id}}' })).toEqual(['text']);
    expect(fieldsOf(CreateCannedReplyBody, { shortcut: 'ok', text: '' })).toEqual(['text']);
    expect(fieldsOf(UpdateCannedReplyBody, {})).toEqual([]);
    expect(fieldsOf(UpdateCannedReplyBody, { text: '{{agent.email}}' })).toEqual(['text']);
    const [error] = validateSync(plainToInstance(CreateCannedReplyBody, { shortcut: 'ok', text: 'Hi {{contact.city}}' }));
    expect(Object.values(error.constraints ?? {}).join(' ')).toContain('unknown: {{contact.city}}');
  });
});

describe('a deal’s expected close date', () => {
  it.each([
    ['2026-03-31', true],
    ['2028-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['2026-3-31', false],
    ['2026-03-31T00:00:00Z', false],
    [20260331, false],
  ])('isCalendarDate(%s) is %s', (value, expected) => {
    expect(isCalendarDate(value)).toBe(expected);
  });

  it('may be cleared with null on PATCH', () => {
    expect(fieldsOf(UpdateDealBody, { expected_close_date: null })).toEqual([]);
    expect(fieldsOf(UpdateDealBody, { expected_close_date: '31/03/2026' })).toEqual(['expected_close_date']);
  });
});
