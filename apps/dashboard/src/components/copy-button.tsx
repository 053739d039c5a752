import { useState } from 'react';

/** Copies `value` to the clipboard and says so (for screen readers too). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <button type="button" className="button-small" onClick={() => void copy()} aria-label={`Copy ${label}`}>
      <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
    </button>
  );
}

/** A secret or identifier in monospace, with its copy button. */
export function CopyableValue({ label, value }: { label: string; value: string }) {
  return (
    <div className="copyable">
      <dt>{label}</dt>
      <dd>
        <code data-testid={label}>{value}</code>
        <CopyButton value={value} label={label} />
      </dd>
    </div>
  );
}
