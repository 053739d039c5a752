import type { Author, InboxConversation, InboxState, Member } from '../../api';

/** A conversation's contact as people know them: the lead's name when the agent learnt it, else the number. */
export function contactName(c: Pick<InboxConversation, 'contact_name' | 'customer'>): string {
  return c.contact_name?.trim() || c.customer;
}

export const STATE_LABELS: Record<InboxState, string> = {
  active: 'agent answering',
  handed_off: 'waiting for a person',
  closed: 'closed',
};

/** The name of a team member by id (`you` for the reader). */
export function memberName(id: string | null | undefined, members: readonly Member[], me: Member | undefined): string | undefined {
  if (!id) return undefined;
  if (id === me?.id) return 'you';
  return members.find((m) => m.id === id)?.name ?? 'a team member';
}

/** Who wrote a message, in words: the customer, the bot (by its agent's name), or a person of the team. */
export function authorLabel(author: Author, contact: string, members: readonly Member[], me: Member | undefined): string {
  switch (author.type) {
    case 'customer':
      return contact;
    case 'agent':
      return author.name ? `Agent ${author.name}` : 'Agent';
    case 'member':
      return author.id === me?.id ? 'You' : (memberName(author.id, members, me) ?? 'A team member');
    case 'api':
      return 'Sent through the API';
  }
}
