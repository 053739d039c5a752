import { PageHeader } from './page-header';

/** What a page shows a member whose role may not use it (the gateway would answer 403), instead of failing. */
export function RoleNotice({ title, what }: { title: string; what: string }) {
  return (
    <section>
      <PageHeader title={title} />
      <p className="notice" role="status">
        Your role cannot {what}. Ask an owner or an admin of your team.
      </p>
    </section>
  );
}
