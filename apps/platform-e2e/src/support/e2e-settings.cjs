'use strict';
// The services' settings for an end-to-end run over `.env.example`: one list for the stacks a spec starts itself
// (platform.ts) and for the stack the run lends to the specs that share one (shared-stack-lender.cjs).
module.exports = {
  NODE_ENV: 'development',
  LOG_LEVEL: 'info',
  SANDBOX_ENABLED: 'true',
  // Tenant webhook retries within seconds, so a slow first attempt cannot outlast the test.
  WEBHOOK_RETRY_SCHEDULE: '1,1,2',
  // Likewise the sandbox's retries of what the gateway did not take (by default they grow to 5 minutes).
  SANDBOX_NOTIFY_RETRY_MS: '250,500,1000,2000',
  // A customer's media download that failed is retried within a second (by default after 2 s, doubling).
  MEDIA_DOWNLOAD_RETRY_MS: '500',
  // Password hashing at its lowest allowed cost (scrypt 2^14, 16 MiB): the suites sign in and sign up many times (the
  // fuzz run hundreds), and the production cost (2^17, 128 MiB each on four threads) would be most of their time.
  PASSWORD_SCRYPT_LOG_N: '14',
};
