import type { RichOutboundContent } from '@parley/contracts';
import { ProviderError } from './whatsapp-provider';

/**
 * The Cloud API message object of a media, location or interactive send (CONTRACT.md §13): `{type, [type]: {...}}`.
 * A media message names the provider's id of the file (ProviderMediaService uploaded it first).
 */
export function cloudApiRichMessage(content: RichOutboundContent): Record<string, unknown> {
  switch (content.type) {
    case 'image':
    case 'document':
    case 'audio':
    case 'video': {
      const { provider_media_id, caption, filename } = content.media;
      if (!provider_media_id) throw new ProviderError('media_not_uploaded', 'The media file was not uploaded to the provider', true);
      const media = {
        id: provider_media_id,
        ...(caption && content.type !== 'audio' ? { caption } : {}),
        ...(filename && content.type === 'document' ? { filename } : {}),
      };
      return { type: content.type, [content.type]: media };
    }
    case 'location':
      return { type: 'location', location: content.location };
    case 'interactive': {
      const i = content.interactive;
      const action =
        i.type === 'button'
          ? { buttons: i.buttons.map((b) => ({ type: 'reply', reply: { id: b.id, title: b.title } })) }
          : { button: i.button, sections: i.sections };
      return { type: 'interactive', interactive: { type: i.type, body: { text: i.body }, action } };
    }
  }
}
