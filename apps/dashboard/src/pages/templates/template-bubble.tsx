import type { TemplateParts } from './template-definition';
import { fill } from './template-definition';

const HEADER_MEDIA_LABELS: Record<string, string> = { IMAGE: 'Image', VIDEO: 'Video', DOCUMENT: 'Document', LOCATION: 'Location' };

/**
 * A template as the customer sees it on WhatsApp: header, body and footer in one bubble, its buttons under it.
 * Variables show the values given (`values.body[n - 1]` for `{{n}}`), or stay `{{n}}` until one is.
 */
export function TemplateBubble({
  parts,
  values = { header: [], body: [] },
  label,
}: {
  parts: TemplateParts;
  values?: { header: readonly string[]; body: readonly string[] };
  label: string;
}) {
  const header = parts.header;
  return (
    <figure className="wa-preview" aria-label={label} data-testid="template-preview">
      <div className="wa-bubble">
        {header?.format === 'TEXT' && header.text && <p className="wa-header">{fill(header.text, values.header)}</p>}
        {header && header.format !== 'TEXT' && <p className="wa-media-header">{HEADER_MEDIA_LABELS[header.format] ?? header.format}</p>}
        <p className="wa-body">{parts.body ? fill(parts.body, values.body) : <span className="muted">The message text appears here.</span>}</p>
        {parts.footer && <p className="wa-footer">{parts.footer}</p>}
      </div>
      {parts.buttons.length > 0 && (
        <ul className="wa-buttons">
          {parts.buttons.map((b, i) => (
            <li key={i}>
              <span aria-hidden="true">{b.type === 'URL' ? '↗ ' : b.type === 'PHONE_NUMBER' ? '✆ ' : '↩ '}</span>
              {b.text || <span className="muted">Button {i + 1}</span>}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
