import { useCallback, useEffect, useState } from 'react';
import { Link, useRouter } from '../router';
import { useCan, type Permission } from '../session/permissions';
import { MENU, type MenuNode } from './pages';

/** The phone's menu: open or closed; it closes on Escape and whenever the page changes. */
export function useMenuToggle() {
  const [open, setOpen] = useState(false);
  const { path } = useRouter();
  const close = useCallback(() => setOpen(false), []);
  const toggle = useCallback(() => setOpen((o) => !o), []);
  useEffect(close, [path, close]);
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  return { open, toggle, close };
}

/** The menu without what the member's role cannot use; a section whose page is left out keeps the pages it may use. */
function allowed(nodes: MenuNode[], can: (p: Permission) => boolean): MenuNode[] {
  return nodes.flatMap((node): MenuNode[] => {
    const children = allowed(node.children ?? [], can);
    const pageAllowed = node.page !== undefined && (!node.page.requires || can(node.page.requires));
    if (pageAllowed) return [{ ...node, children }];
    if (node.page) return children; // e.g. the Playground of an agent member, without the AI agents above it
    return children.length ? [{ ...node, children }] : [];
  });
}

/**
 * One navigation for every screen: a grouped sidebar on a wide one (every entry visible at 1280 px), a panel opened
 * by the Menu button of the top bar on a phone.
 */
export function Navigation({ onNavigate }: { onNavigate(): void }) {
  const can = useCan();
  return (
    <nav aria-label="Dashboard" id="dashboard-menu" className="menu">
      <MenuList nodes={allowed(MENU, can)} onNavigate={onNavigate} />
    </nav>
  );
}

function MenuList({ nodes, onNavigate, nested }: { nodes: MenuNode[]; onNavigate(): void; nested?: boolean }) {
  return (
    <ul className={nested ? 'menu-sub' : undefined}>
      {nodes.map((node) => (
        <li key={node.page?.path ?? node.title}>
          {node.page ? (
            <Link to={node.page.path} onNavigate={onNavigate}>
              {node.page.label}
            </Link>
          ) : (
            <span className="menu-title">{node.title}</span>
          )}
          {node.children && node.children.length > 0 && <MenuList nodes={node.children} onNavigate={onNavigate} nested />}
        </li>
      ))}
    </ul>
  );
}
