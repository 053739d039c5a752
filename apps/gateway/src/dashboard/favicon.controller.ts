import { Controller, Get, Header } from '@nestjs/common';

/** The dashboard's icon (a white speech bubble on the accent green), drawn as SVG for the page's `<link rel="icon">`. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b6e4f"/>' +
  '<path d="M8 9h16a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3h-9l-5 4v-4H8a3 3 0 0 1-3-3v-8a3 3 0 0 1 3-3z" fill="#fff"/></svg>';

/** The same icon as a 32×32 PNG inside an ICO container, for browsers that ask for `/favicon.ico` on their own. */
export const FAVICON_ICO = Buffer.from(
  'AAABAAEAICAAAAEAIAD8AAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAMNJREFUeNpj4M7zZ0DCCtx5/v3cef7nufP8/1MZn4earYBsJ7LlCdx5/u9pYDE6fg+1C8UBCXSwGB0nwBygQCefYwsJBQZovPwfINzPQKMER3TCZBhAy8F41AE4HTDlwKb/H759+U8pAJkBMoskB4A0UBvgcgRWB1DD59hCgmgH0AqMOmDUAaMOGDoOGPCCaMCL4gGvjAiliyUn99K/PUALy0l2ALUthzmAqEYpLSyHNUoHvFk+4B2TAe+aDYrO6YB1zwHs2pwWhFUkfwAAAABJRU5ErkJggg==',
  'base64',
);

const CACHE = 'public, max-age=86400';

/**
 * `/favicon.ico` and `/favicon.svg` at the origin's root, where browsers look for them: without them every dashboard
 * load logs a 404 in the console. Not API operations: openapi-document.ts leaves them out (UI_PATHS).
 */
@Controller()
export class FaviconController {
  @Get('favicon.ico')
  @Header('content-type', 'image/x-icon')
  @Header('cache-control', CACHE)
  ico(): Buffer {
    return FAVICON_ICO;
  }

  @Get('favicon.svg')
  @Header('content-type', 'image/svg+xml')
  @Header('cache-control', CACHE)
  svg(): string {
    return FAVICON_SVG;
  }
}
