import { richStandIn, type OutboundContent } from '@parley/contracts';
import type { TurnContent } from './conversation.entity';

/** A message sent to the customer as its thread keeps it: a text (the stand-in of a rich one) and its rich parts. */
export interface SentTurn {
  text: string;
  content: TurnContent | null;
}

/** What `message.outbound` sent, as the inbox thread shows it (CONTRACT.md §13). */
export function sentTurn(content: OutboundContent): SentTurn {
  switch (content.type) {
    case 'text':
      return { text: content.text, content: null };
    case 'template':
      return {
        text: `[template] ${content.template.name}`,
        content: { type: 'template', template: { name: content.template.name, language: content.template.language.code } },
      };
    case 'location':
      return { text: richStandIn(content), content: { type: 'location', location: content.location } };
    case 'interactive': {
      const { interactive } = content;
      const options = interactive.type === 'button' ? interactive.buttons.map((b) => b.title) : interactive.sections.flatMap((s) => s.rows.map((r) => r.title));
      return { text: interactive.body, content: { type: 'interactive', options } };
    }
    default:
      return { text: richStandIn(content), content: { type: content.type, media: { id: content.media.media_id, caption: content.media.caption ?? null } } };
  }
}
