import { pollUntil } from '@parley/testing';
import type { Page } from 'playwright-core';

/**
 * Moves through the dashboard's menu like a user (a click on the link, not a URL typed in: a program's credential
 * lives in memory). On a phone the menu is behind the top bar's Menu button: it is opened first.
 */
export async function openPage(page: Page, label: string, heading: string | RegExp): Promise<void> {
  const link = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: label, exact: true });
  const menuButton = page.getByRole('button', { name: 'Menu' });
  if ((await menuButton.isVisible()) && (await menuButton.getAttribute('aria-expanded')) !== 'true') await menuButton.click();
  await link.click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** Creates an API key on Settings → Developers → API keys (credentials are made on request, not at sign-up) and reads it. */
export async function createApiKey(page: Page, name = 'e2e'): Promise<string> {
  await openPage(page, 'API keys', 'API keys');
  const form = page.getByRole('form', { name: 'Create an API key' });
  await form.getByLabel(/^Name/).fill(name);
  await form.getByRole('button', { name: 'Create key' }).click();
  await page.getByTestId('New API key').first().waitFor();
  return copyableValue(page, 'New API key');
}

/** The text of one of the copyable values (credentials, secrets) by its label. */
export async function copyableValue(page: Page, label: string): Promise<string> {
  return (await page.getByTestId(label).first().textContent())?.trim() ?? '';
}

/** Opens the dashboard's sign-in page and signs in with a member's email and password; resolves on "Get started". */
export async function signInWithPassword(page: Page, gateway: string, member: { email: string; password: string }): Promise<void> {
  await page.goto(`${gateway}/dashboard/sign-in`);
  await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Get started' }).waitFor();
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
  // "Updating…" is an earlier answer still on screen (a list being filtered or paged): not settled either
  await pollUntil(async () => (await page.getByRole('status').filter({ hasText: /^(Loading|Updating)/ }).count()) === 0, { timeoutMs: 30_000, description: `${page.url()} to load` });
}
