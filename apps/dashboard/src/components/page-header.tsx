import { useMatch } from '@tanstack/react-router';
import { useEffect, useRef, type ReactNode } from 'react';

/** The path whose heading last took the focus (`undefined` until the first page shows: a fresh load keeps the focus). */
let focusedForPath: string | undefined;

/**
 * A page's heading. It names the browser tab ("Agents · Parley"), and after a navigation it takes the focus, so a
 * screen reader announces the new page and the keyboard continues from its top rather than from the menu link.
 */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  // The path of the route this heading is rendered in (not the browser's): while a navigation renders the next page,
  // the page being left still shows for a moment and must not take the focus for the new path.
  const path = useMatch({ strict: false, select: (match) => match.pathname });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Parley`;
  }, [title]);
  useEffect(() => {
    if (focusedForPath !== undefined && focusedForPath !== path) heading.current?.focus();
    focusedForPath = path;
  }, [path]);
  return (
    <header className="page-header">
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children && <p className="muted">{children}</p>}
    </header>
  );
}
