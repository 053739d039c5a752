import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server } from './server';

// Every test file: the API mocked at the network (MSW intercepts the typed client's fetch), a fresh page after each test.

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  document.cookie = 'parley_csrf=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  window.history.replaceState(null, '', '/dashboard/');
});
afterAll(() => server.close());

// jsdom does not scroll; the router scrolls to the top after each navigation.
window.scrollTo = () => undefined;
