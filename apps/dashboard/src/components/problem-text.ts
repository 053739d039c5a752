import { ApiError } from '../api';
import { WEEKDAY_NAMES } from './format';

/**
 * The API's field errors (`errors[]` of a problem, CONTRACT §1) are written for programmers: "to must be an E.164 phone
 * number such as +14155550100", "faqs[0].question must be…". People read a sentence about the field they see instead.
 * Every form shows field errors through `fieldSentence`.
 */

/** What a person calls each field of the API's bodies (the last part of its path). */
const FIELD_NAMES: Record<string, string> = {
  to: 'The WhatsApp number',
  from: 'The sending number',
  phone_number: 'The phone number',
  phone_number_id: 'The phone number id',
  waba_id: 'The WhatsApp business account id',
  access_token: 'The API key',
  message: 'The message',
  text: 'The text',
  url: 'The URL',
  description: 'The description',
  events: 'The events',
  name: 'The name',
  instruction: 'The instruction',
  greeting: 'The greeting',
  skills: 'The skills',
  question: 'The question',
  answer: 'The answer',
  timezone: 'The time zone',
  slot_minutes: 'The slot length',
  opening_hours: 'The opening hours',
  title: 'The title',
  file: 'The file',
  refresh: 'How often the page is checked',
  since: 'The start time',
  email: 'The email address',
  password: 'The password',
  agent: 'The agent',
  base_url: 'The base URL',
  api_key: 'The API key',
  monthly_budget: 'The monthly budget',
  expect: 'The expectation',
  contains: 'The expected text',
  members: 'The members',
  routing: 'How conversations are shared',
  capacity_per_member: 'The most open conversations per member',
  reassign_after_seconds: 'The time before a conversation is reassigned',
  business_hours: 'The business hours',
  holidays: 'The holidays',
  closed_message: 'The closed message',
  sla: 'The response targets',
  first_response_seconds: 'The first reply target',
  resolution_seconds: 'The resolution target',
  team_id: 'The team',
  match: 'The condition',
  channel: 'The channel',
  skill: 'The handoff reason',
  keyword: 'The keyword',
  contact_tag: 'The contact tag',
  labels: 'The labels',
  label: 'The label',
  status: 'Your status',
};

/** A number of seconds in the words the forms use: "1 minute", "24 hours", "7 days". */
function secondsInWords(seconds: number): string {
  const unit = seconds % 86_400 === 0 ? ['day', 86_400] : seconds % 3600 === 0 ? ['hour', 3600] : seconds % 60 === 0 ? ['minute', 60] : ['second', 1];
  const count = seconds / (unit[1] as number);
  return `${count} ${unit[0]}${count === 1 ? '' : 's'}`;
}

// Looked up by any word of an error's path or rule, so by string.
const DAY_NAMES: Record<string, string> = WEEKDAY_NAMES;

/** Rules whose wording is technical, said plainly (matched on the message after the field path). */
const RULES: [RegExp, string][] = [
  [/^must be (an E\.164 phone number|a valid phone number in E\.164 format).*/i, 'must be a whole phone number with + and the country code, e.g. +1 415 555 0123'],
  [/^must be an absolute http\(s\) URL.*/i, 'must be a full web address, starting with https://'],
  [/^must be an? (RFC 3339|ISO 8601).*/i, 'must be a date and time'],
  [/^must be an? (valid )?IANA time ?zone.*/i, 'must be a time zone from the list, e.g. Europe/Berlin'],
  [/^must not contain NUL.*/i, 'contains a character that is not allowed'],
  [/^is not an allowed field.*/i, 'is not something this form can set'],
  [/^must be a list of team member ids.*/i, 'must be people of your team, each once, at most 100'],
  [/^\S+ is not a member of your team.*/i, 'include someone who is no longer in your team'],
  [/^must be a team id.*/i, 'must be one of your teams'],
  [/^"?[^"\s]*"? is not one of your teams.*/i, 'is no longer one of your teams'],
  [/^must be a channel kind.*/i, 'must be WhatsApp, SMS, Email or Voice call'],
];

/** "must be a whole number of seconds from 60 to 604800 (7 days)" → "must be from 1 minute to 7 days". */
function secondsRule(rule: string): string {
  const range = /^must be a whole number of seconds from (\d+) to (\d+)(.*)$/.exec(rule);
  if (!range) return rule;
  const rest = /or null/.test(range[3]) ? ', or left empty' : '';
  return `must be from ${secondsInWords(Number(range[1]))} to ${secondsInWords(Number(range[2]))}${rest}`;
}

/** "faqs[0].question" → "The question of FAQ 1"; "booking.opening_hours.mon[0]" → "Monday's opening hours". */
export function fieldName(path: string): string {
  const day = /opening_hours\.(\w{3})/.exec(path)?.[1];
  if (day && DAY_NAMES[day]) return `${DAY_NAMES[day]}’s opening hours`;
  const faq = /^faqs\[(\d+)\]\.(question|answer)$/.exec(path);
  if (faq) return `The ${faq[2]} of FAQ ${Number(faq[1]) + 1}`;
  const last = path.split('.').pop()?.replace(/\[\d+\]$/, '') ?? path;
  return FIELD_NAMES[last] ?? `The ${last.replace(/_/g, ' ')}`;
}

/** One field error as a sentence for people: "The WhatsApp number must start with + and the country code, e.g. …". */
export function fieldSentence(field: string, message: string): string {
  // The API starts its message with the field's path (or, for nested fields, the end of it: `match.channel` of
  // `[1].match.channel`): drop it.
  const parts = field.split('.');
  const prefixes = parts.map((_, i) => parts.slice(i).join('.')).flatMap((p) => [p, p.replace(/\[\d+\]$/, '')]);
  let rule = message;
  for (const prefix of prefixes) {
    if (prefix && rule.startsWith(`${prefix} `)) {
      rule = rule.slice(prefix.length + 1);
      break;
    }
  }
  for (const [pattern, plain] of RULES) {
    if (pattern.test(rule)) {
      rule = plain;
      break;
    }
  }
  rule = secondsRule(rule);
  let subject = fieldName(field);
  // Hours rules start with the day's key ("mon range 18:00-09:00 must end after it starts"): said after the field.
  const day = /^(mon|tue|wed|thu|fri|sat|sun) (.*)$/.exec(rule);
  if (day && !subject.includes(DAY_NAMES[day[1]])) {
    subject = `${subject} on ${DAY_NAMES[day[1]]}:`;
    rule = day[2];
  }
  rule = rule.replace(/\b(mon|tue|wed|thu|fri|sat|sun)\b/g, (d) => DAY_NAMES[d] ?? d);
  const sentence = `${subject} ${rule}`.trim();
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** What the user should read about a failure: the problem+json `detail` and a sentence per broken field, or the error's message. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    const fields = err.fieldErrors.map((e) => fieldSentence(e.field, e.message));
    return fields.length ? `${err.message} ${fields.join(' ')}` : err.message;
  }
  return err instanceof Error ? err.message : String(err);
}
