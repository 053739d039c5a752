/**
 * The query keys of the records (contacts, companies, deals): a change invalidates the key of what it touched, and
 * every view under it reads again.
 */
export const CONTACTS_KEY = ['contacts'] as const;
export const contactKey = (id: string) => ['contacts', 'one', id] as const;
export const COMPANIES_KEY = ['companies'] as const;
export const DEALS_KEY = ['deals'] as const;
export const PIPELINES_KEY = ['pipelines'] as const;

/** What the event stream says about records: a list shows them again after these. */
export const CONTACT_EVENTS = ['contact.created', 'contact.updated', 'contact.deleted', 'lead.captured', 'lead.updated'] as const;
export const DEAL_EVENTS = ['deal.created', 'deal.stage_changed'] as const;
