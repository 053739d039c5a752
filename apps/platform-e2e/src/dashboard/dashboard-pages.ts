import { pollUntil } from '@parley/testing';
import type { Page } from 'playwright-core';

/** Moves through the dashboard's menu like a user (a click on the link, not a URL typed in: the session lives in memory). */
export async function openPage(page: Page, label: string, heading: string | RegExp): Promise<void> {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** The text of one of the copyable values (credentials, secrets) by its label. */
export async function copyableValue(page: Page, label: string): Promise<string> {
  return (await page.getByTestId(label).first().textContent())?.trim() ?? '';
}

/** Signs in on the sign-in page (already shown) with a program's API key, the second way in beside email and password. */
export async function signInWithApiKey(page: Page, apiKey: string): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
  await page.getByRole('button', { name: 'Sign in with an API key instead' }).click();
  await page.getByRole('textbox', { name: 'API key' }).fill(apiKey);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Waits until the page's lists have loaded (no "Loading …" status left), so what a check reads is what a person sees. */
export async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await pollUntil(async () => (await page.getByRole('status').filter({ hasText: /^Loading/ }).count()) === 0, { timeoutMs: 30_000, description: `${page.url()} to load` });
}
