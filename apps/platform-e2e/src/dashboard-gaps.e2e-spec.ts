import { pollUntil } from '@parley/testing';
import { expectNoSeriousA11yViolations } from './dashboard/accessibility';
import { join } from 'node:path';
import { Screenshots, launchBrowser, type Browser } from './dashboard/browser';
import { openPage, settled, signInWithPassword } from './dashboard/dashboard-pages';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';

// The agent improvement loop in a real Chromium (issue 36, CONTRACT.md §19): two customers ask where to park, in their
// own words, and the agent does not know; the owner finds one question asked twice under the agent's "Questions it
// could not answer", answers it once, the Playground's customer asking it the other way is answered, and the agent's
// analytics count it all.

const PARKING_ANSWER = 'Park free in the yard behind the gym; the gate code is at the desk.';

describe('Dashboard in a real browser: answering what the AI agent could not', () => {
  let platform: Platform;
  let browser: Browser;
  let token: string;
  const shots = new Screenshots(join(__dirname, '..', '..', '..', 'test-artifacts', 'dashboard-gaps'));
  const owner = { email: 'owner@harbour-climbing.example', password: 'crimp-and-jug-2026' };
  const api = <T = unknown>(method: string, path: string, json?: unknown) => http<T>(method, `${platform.gateway}${path}`, { token, json });

  beforeAll(async () => {
    platform = await sharedPlatform();
    browser = await launchBrowser();
    const account = await http<{ api_key: string }>('POST', `${platform.gateway}/api/v1/accounts`, { json: { name: 'Harbour Climbing', ...owner } });
    expect(account.status).toBe(201);
    token = account.body.api_key;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  }, 60_000);

  it('answers a grouped question from the agent page, and the Playground gets the answer', async () => {
    const agent = {
      name: 'front-desk',
      instruction: 'You are the front desk of Harbour Climbing, a bouldering gym.',
      greeting: '',
      skills: ['faq_responder'],
      faqs: [{ question: 'What are your opening hours?', answer: 'We are open 10:00 to 22:00 every day.' }],
    };
    expect((await api('PUT', '/api/v1/agents/front-desk', agent)).status).toBe(201);
    const channels = await api<{ data: { provider: string; phone_number: string }[] }>('GET', '/api/v1/channels');
    const channel = channels.body.data.find((c) => c.provider === 'sandbox')!;
    for (const [from, text] of [
      ['+14155550171', 'Where can I park my car?'],
      ['+14155550172', 'Is there parking near you?'],
    ]) {
      expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from, to: channel.phone_number, text } })).status).toBe(200);
    }
    await pollUntil(async () => (await api<{ data: { count: number }[] }>('GET', '/api/v1/agents/front-desk/gaps')).body.data.some((g) => g.count === 2), {
      timeoutMs: 60_000,
      description: 'both questions in one gap',
    });

    const { page } = browser;
    await signInWithPassword(page, platform.gateway, owner);

    await openPage(page, 'AI agents', 'AI agents');
    await page.getByRole('list', { name: 'AI agents' }).getByRole('button', { name: /front-desk/ }).click();
    const gaps = page.getByRole('region', { name: 'Questions it could not answer' });
    const parking = gaps.getByRole('listitem').filter({ hasText: 'Where can I park my car?' });
    await parking.getByText('asked 2 times').waitFor();
    await parking.getByText('Also asked as: “Is there parking near you?”').waitFor();
    await settled(page);
    await expectNoSeriousA11yViolations(page, 'agent gaps');
    await shots.take(page, 'agent-gaps');

    // an empty answer is not sent; a real one closes the gap and makes a new version of the agent
    expect(await parking.getByRole('button', { name: 'Save answer' }).isDisabled()).toBe(true);
    await parking.getByLabel('Answer').fill(PARKING_ANSWER);
    await parking.getByRole('button', { name: 'Save answer' }).click();
    await gaps.getByRole('status').getByText('Answered “Where can I park my car?”: front-desk now answers it and 1 other wording.').waitFor();
    await gaps.getByText('Nothing yet: questions your AI agent cannot answer will appear here.').waitFor();
    await page.getByRole('heading', { name: 'Edit front-desk (version 2)' }).waitFor();
    await shots.take(page, 'gap-answered');

    // the other wording, asked in the Playground, is answered with the owner's words
    await openPage(page, 'Playground', 'Playground');
    await page.getByRole('textbox', { name: 'Message' }).fill('Is there parking near you?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('chat-business').filter({ hasText: PARKING_ANSWER }).waitFor({ timeout: 45_000 });
    await shots.take(page, 'playground-answered');

    // the agent's page counts what its replies did: two not known, then one answered from the new FAQ
    await openPage(page, 'AI agents', 'AI agents');
    await page.getByRole('list', { name: 'AI agents' }).getByRole('button', { name: /front-desk/ }).click();
    const analytics = page.getByRole('region', { name: 'How it did (last 30 days)' });
    await pollUntil(async () => ((await analytics.getByTestId('analytics-summary').textContent().catch(() => '')) ?? '').startsWith('3 replies: 1 answered from what it knows (33%), 2 it did not know (67%)'), {
      timeoutMs: 30_000,
      description: 'the analytics summary counting three replies',
    });
    await analytics.getByRole('list', { name: 'Knowledge used most' }).getByText('Is there parking near you?').waitFor();
    await analytics.getByRole('list', { name: 'Knowledge never used' }).getByText('What are your opening hours?').waitFor();
    await settled(page);
    await expectNoSeriousA11yViolations(page, 'agent analytics');
    await shots.take(page, 'agent-analytics');
  });
});
