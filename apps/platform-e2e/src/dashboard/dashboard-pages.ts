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
