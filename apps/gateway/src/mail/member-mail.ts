import type { MemberRole } from '@parley/contracts';
import type { MailContent } from './smtp-mailer';

/** An invitation to a team (issue 32): the business, who invited, the role, and the accept link. */
export interface InvitationMailInput {
  business: string;
  invitee: { name: string };
  /** Null when a program (an API key) invited. */
  inviter: { name: string; email: string } | null;
  role: MemberRole;
  url: string;
  expiresAt: Date;
}

export interface PasswordResetMailInput {
  business: string;
  member: { name: string };
  url: string;
  expiresAt: Date;
}

const ROLE_WORK: Record<MemberRole, string> = {
  owner: 'an owner (everything, including the team and billing)',
  admin: 'an admin (everything but managing owners)',
  agent: 'an agent (answering customers in the inbox)',
};

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside HTML elements and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** A subject line: one line (no header can be smuggled in), at most 200 characters. */
export function subjectLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** "Thursday 3 December 2026, 14:05 UTC" (built from parts: ICU versions differ in their punctuation). */
export function mailDate(at: Date): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('day')} ${part('month')} ${part('year')}, ${part('hour')}:${part('minute')} UTC`;
}

/** The HTML part around its paragraphs and one button: plain, inline-styled, readable in any client. */
function htmlMail(title: string, paragraphs: string[], button: { label: string; url: string }, after: string[]): string {
  const p = (html: string) => `<p style="margin:0 0 16px">${html}</p>`;
  const url = escapeHtml(button.url);
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#1f2933">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">',
    ...paragraphs.map(p),
    `<p style="margin:24px 0"><a href="${url}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">${escapeHtml(button.label)}</a></p>`,
    p(`Or open this link: <a href="${url}" style="color:#1d4ed8;word-break:break-all">${url}</a>`),
    ...after.map((html) => `<p style="margin:0 0 12px;font-size:14px;color:#52606d">${html}</p>`),
    '</div></body></html>',
  ].join('\n');
}

/** The invitation: names the business and who invited, says what the role does, and carries the accept link. */
export function invitationMail(input: InvitationMailInput): MailContent {
  const { business, invitee, inviter, role, url, expiresAt } = input;
  const who = inviter ? `${inviter.name} (${inviter.email})` : 'Someone at the business';
  const subject = subjectLine(inviter ? `${inviter.name} invited you to join ${business} on Parley` : `You are invited to join ${business} on Parley`);
  const until = mailDate(expiresAt);
  const text = [
    `Hello ${invitee.name},`,
    '',
    `${who} invited you to join ${business} on Parley as ${ROLE_WORK[role]}.`,
    '',
    'Accept the invitation and choose your password:',
    url,
    '',
    `The link works once, until ${until}. If you did not expect this invitation, ignore this email: nothing happens without it.`,
    '',
    '— Parley',
  ].join('\n');
  const html = htmlMail(
    subject,
    [
      `Hello ${escapeHtml(invitee.name)},`,
      `${inviter ? `<strong>${escapeHtml(inviter.name)}</strong> (${escapeHtml(inviter.email)})` : 'Someone at the business'} invited you to join <strong>${escapeHtml(business)}</strong> on Parley as ${escapeHtml(ROLE_WORK[role])}.`,
    ],
    { label: 'Accept the invitation', url },
    [`The link works once, until ${escapeHtml(until)}.`, 'If you did not expect this invitation, ignore this email: nothing happens without it.'],
  );
  return { subject, text, html };
}

/** A password reset: the business the membership is in, and the single-use link. */
export function passwordResetMail(input: PasswordResetMailInput): MailContent {
  const { business, member, url, expiresAt } = input;
  const subject = subjectLine(`Reset your Parley password for ${business}`);
  const until = mailDate(expiresAt);
  const text = [
    `Hello ${member.name},`,
    '',
    `Someone (hopefully you) asked to reset your password for ${business} on Parley. Choose a new one here:`,
    url,
    '',
    `The link works once, until ${until}. If you did not ask for it, ignore this email: your password stays as it is.`,
    '',
    '— Parley',
  ].join('\n');
  const html = htmlMail(
    subject,
    [`Hello ${escapeHtml(member.name)},`, `Someone (hopefully you) asked to reset your password for <strong>${escapeHtml(business)}</strong> on Parley.`],
    { label: 'Choose a new password', url },
    [`The link works once, until ${escapeHtml(until)}.`, 'If you did not ask for it, ignore this email: your password stays as it is.'],
  );
  return { subject, text, html };
}
