/** What a canned reply's variables are filled with where it is inserted (CONTRACT.md §18). */
export interface CannedReplyValues {
  /** The conversation's contact, as the inbox names them. */
  contactName: string;
  /** The member inserting it. */
  agentName: string;
}

/**
 * The reply with `{{contact.name}}` and `{{agent.name}}` filled in (spaces inside the braces allowed); the API refuses
 * any other variable, so nothing else is left to fill.
 */
export function fillCannedReply(text: string, values: CannedReplyValues): string {
  return text.replace(/\{\{\s*(contact\.name|agent\.name)\s*\}\}/g, (_, name: string) => (name === 'contact.name' ? values.contactName : values.agentName));
}

/** The shortcut being typed when the reply box starts with `/` ("/hours" → "hours"), else undefined. */
export function typedShortcut(text: string): string | undefined {
  const match = /^\/([a-z0-9_-]*)$/i.exec(text);
  return match ? match[1].toLowerCase() : undefined;
}
