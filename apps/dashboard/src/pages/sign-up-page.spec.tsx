import type { components } from '@parley/api-client';
import { screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Account } from '../api';
import { page } from '../test/fixtures';
import { descriptionOf, renderApp } from '../test/render-app';
import { json, problem, server } from '../test/server';

const account: Account = { tenant_id: 'ten_01JD3S4ZC5Q2X8V6N7M9P0R1T2', client_id: 'cli_1', client_secret: 'secret', api_key: 'parley_sk_1', plan: 'free' };
const token: components['schemas']['AccessToken'] = { access_token: 'session', token_type: 'Bearer', expires_in: 3600 };

async function fillSignUp(user: ReturnType<typeof renderApp>['user'], email: string) {
  await user.type(await screen.findByLabelText('Business name'), 'Crumbs Bakery');
  await user.type(screen.getByLabelText(/Your name/), 'Ada');
  await user.type(screen.getByLabelText('Your email'), email);
  await user.type(screen.getByLabelText('Password'), 'correct horse battery');
  await user.click(screen.getByRole('button', { name: 'Create account' }));
}

describe('sign-up', () => {
  it('shows the field a 400 problem names beside that field, and clears it once the field is edited', async () => {
    server.use(http.post('/api/v1/accounts', () => problem(400, 'The request is not valid.', [{ field: 'email', message: 'email must be an email' }])));
    const { user } = renderApp('/sign-up', { signedIn: false });

    // the browser takes `ada@bakery`; the API wants a domain with a dot
    await fillSignUp(user, 'ada@bakery');

    const email = screen.getByLabelText('Your email');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(email)).toBe('The email address must be an email.');
    expect(screen.getByLabelText('Business name').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('The request is not valid.');

    await user.type(email, '.example');
    expect(email.getAttribute('aria-invalid')).toBeNull();
    expect(descriptionOf(email)).toBe('');
    // the problem was only that field: nothing is left to say
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('creates the account with what was typed, signs the owner in and opens Get started', async () => {
    const sent: { account?: unknown; login?: unknown } = {};
    server.use(
      http.post('/api/v1/accounts', async ({ request }) => {
        sent.account = await request.json();
        return json(account, 201);
      }),
      http.post('/auth/login', async ({ request }) => {
        sent.login = await request.json();
        return json(token);
      }),
      // what Get started reads
      http.get('/api/v1/channels', () => json(page([]))),
      http.get('/api/v1/agents', () => json(page([]))),
      http.get('/api/v1/conversations', () => json(page([]))),
      http.get('/api/v1/team', () => json(page([]))),
    );
    const { user } = renderApp('/sign-up', { signedIn: false });

    await fillSignUp(user, 'ada@bakery.example');

    expect(await screen.findByRole('heading', { name: 'Get started' })).toBeTruthy();
    expect(sent.account).toEqual({ name: 'Crumbs Bakery', owner_name: 'Ada', email: 'ada@bakery.example', password: 'correct horse battery' });
    expect(sent.login).toEqual({ email: 'ada@bakery.example', password: 'correct horse battery' });
    expect(screen.getByText('Ada Owner (owner)')).toBeTruthy();
  });

  it('says in words when the server cannot be reached', async () => {
    server.use(http.post('/api/v1/accounts', () => Response.error()));
    const { user } = renderApp('/sign-up', { signedIn: false });

    await fillSignUp(user, 'ada@bakery.example');

    expect((await screen.findByRole('alert')).textContent).toBe('The server could not be reached. Check your connection and try again.');
    expect(screen.getByRole('button', { name: 'Create account' })).toBeTruthy();
  });
});
