/** An error as Stripe's API answers it: `{error: {type, message, param?}}` with its HTTP status. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }

  body(): { error: { type: string; message: string; param?: string } } {
    return { error: { type: 'invalid_request_error', message: this.message, ...(this.param ? { param: this.param } : {}) } };
  }
}
