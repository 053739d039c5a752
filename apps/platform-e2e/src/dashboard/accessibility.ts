import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The WCAG rule sets checked: A and AA of WCAG 2.0–2.2, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * Runs axe-core on the page as it is now and fails, listing each rule and the elements that break it, when anything
 * `serious` or `critical` is found. Wait for the page's content first (its heading, its loaded list): axe checks only
 * what is rendered. `page` names the page in the failure.
 */
export async function expectNoSeriousA11yViolations(page: Page, name = page.url()): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (serious.length === 0) return;
  const report = serious
    .map((v) => `- ${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.replace(/\n/g, ' ') ?? ''}`).join('\n')}`)
    .join('\n');
  throw new Error(`Accessibility: ${serious.length} serious or critical axe violation(s) on ${name}:\n${report}`);
}
