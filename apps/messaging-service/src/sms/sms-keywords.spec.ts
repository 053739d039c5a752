import { smsKeyword } from './sms-keywords';

describe('smsKeyword', () => {
  it.each(['STOP', 'stop', ' Stop. ', 'STOPALL', 'unsubscribe', 'CANCEL', 'end', 'QUIT!'])('%j opts out', (text) => {
    expect(smsKeyword(text)?.kind).toBe('stop');
  });

  it.each(['START', 'unstop', 'Yes'])('%j opts back in', (text) => {
    expect(smsKeyword(text)?.kind).toBe('start');
  });

  it.each(['HELP', 'info'])('%j asks for help', (text) => {
    expect(smsKeyword(text)?.kind).toBe('help');
  });

  it('records the keyword as written, upper-cased', () => {
    expect(smsKeyword(' quit ')).toEqual({ kind: 'stop', keyword: 'QUIT' });
  });

  it.each(['stop texting me about the sale', 'please stop', 'yes please', 'STOP STOP', '', 'constructor', 'toString'])('%j is a message for the agent', (text) => {
    expect(smsKeyword(text)).toBeNull();
  });
});
