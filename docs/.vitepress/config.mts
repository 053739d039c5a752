import { defineConfig } from 'vitepress';
import { withMermaid } from 'vitepress-plugin-mermaid';

/**
 * The docs site: the Markdown of docs/ built by VitePress into dist/docs, which the gateway serves at /guide in
 * development (`npm run docs` builds it, `npm run docs:dev` previews it with live reload).
 */
export default withMermaid(
  defineConfig({
    title: 'Parley',
    description: 'Multi-tenant conversational AI agents on WhatsApp, SMS, email and voice: guides, reference and measurements.',
    base: '/guide/',
    outDir: '../dist/docs',
    cacheDir: '../node_modules/.cache/vitepress',
    cleanUrls: true,
    lastUpdated: false,
    // Links into the running system (http://localhost:3000/dashboard) are not pages of the site; every other one is checked.
    ignoreDeadLinks: 'localhostLinks',
    // Files the site does not publish: generated inputs and what only the repository reads.
    srcExclude: ['**/README.md'],
    themeConfig: {
      search: {
        provider: 'local',
        options: {
          miniSearch: {
            // "campaign" finds "Campaigns" as a word, not only as a prefix: plurals are indexed and searched singular.
            options: { processTerm: (term: string) => term.toLowerCase().replace(/(?<=[a-z]{3}[^s])s$/, '') },
          },
        },
      },
      outline: [2, 3],
      nav: [
        { text: 'Quickstart', link: '/quickstart' },
        { text: 'Guides', link: '/guides/agents' },
        { text: 'API reference', link: '/reference/api' },
        { text: 'Events', link: '/reference/events' },
      ],
      sidebar: [
        {
          text: 'Start here',
          items: [
            { text: 'Quickstart', link: '/quickstart' },
            { text: 'Running it locally', link: '/guides/running-locally' },
            { text: 'The dashboard', link: '/guides/dashboard' },
          ],
        },
        {
          text: 'Channels',
          items: [
            { text: 'WhatsApp', link: '/guides/whatsapp' },
            { text: 'SMS and email', link: '/guides/sms-email' },
            { text: 'Voice', link: '/guides/voice' },
          ],
        },
        {
          text: 'Agents',
          items: [
            { text: 'Agents and knowledge', link: '/guides/agents' },
            { text: 'An LLM', link: '/guides/llm' },
          ],
        },
        {
          text: 'Customers',
          items: [
            { text: 'The inbox and the team', link: '/guides/inbox-team' },
            { text: 'Contacts and CRM', link: '/guides/contacts-crm' },
            { text: 'Campaigns', link: '/guides/campaigns' },
            { text: 'Billing and wallet', link: '/guides/billing' },
          ],
        },
        {
          text: 'Integrate',
          items: [
            { text: 'Webhooks and signatures', link: '/guides/webhooks' },
            { text: 'The API', link: '/reference/api' },
            { text: 'Event catalogue', link: '/reference/events' },
            { text: 'Event contracts', link: '/reference/event-contracts' },
          ],
        },
        {
          text: 'Operate',
          items: [
            { text: 'Deploying with Docker', link: '/guides/deploy-docker' },
            { text: 'Deploying on Kubernetes', link: '/guides/deploy-kubernetes' },
            { text: 'Scaling out', link: '/guides/scaling' },
            { text: 'Operations and metrics', link: '/guides/operations' },
            { text: 'Security', link: '/guides/security' },
            { text: 'Configuration', link: '/reference/configuration' },
          ],
        },
        {
          text: 'Measured',
          items: [
            { text: 'Benchmarks', link: '/benchmarks' },
            { text: 'Agent evaluation', link: '/agent-eval' },
          ],
        },
        {
          text: 'Contributing',
          items: [
            { text: 'Repository layout', link: '/contributing/repository' },
            { text: 'Tests', link: '/contributing/tests' },
          ],
        },
      ],
    },
    markdown: {
      // The pages quote templates (`{{1}}`, `{{contact.name}}`): inline code is text, never a Vue interpolation.
      config(md) {
        const renderInlineCode = md.renderer.rules.code_inline!;
        md.renderer.rules.code_inline = (tokens, idx, options, env, self) => {
          tokens[idx].attrSet('v-pre', '');
          return renderInlineCode(tokens, idx, options, env, self);
        };
      },
    },
    mermaid: {},
  }),
);
