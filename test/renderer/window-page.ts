/**
 * A window of the agent in a fresh browser profile, as the renderer specs open it: its own
 * context (viewport, locale, time zone as asked), the page's errors collected — an uncaught
 * exception or a console error, but the browser's own line for a WebSocket that cannot connect
 * when the spec stops the agent on purpose — and, unless asked not to, logged in and connected.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

export interface WindowPage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** The page's errors so far; a spec expects none. */
  readonly errors: string[];
}

export interface WindowPageOptions {
  readonly viewport?: { readonly width: number; readonly height: number };
  readonly locale?: string;
  readonly timezoneId?: string;
  readonly hasTouch?: boolean;
  /** The agent goes away during the spec: its failed reconnections are not errors of the page. */
  readonly reconnects?: boolean;
  /** Wait until the window is logged in and connected (default true)… */
  readonly waitReady?: boolean;
  /** …for at most this long (default 10 s). */
  readonly readyWithinMs?: number;
}

const LOST_SOCKET = /WebSocket connection to .* failed/;

export async function openWindowPage(
  browser: Browser,
  url: string,
  options: WindowPageOptions = {},
): Promise<WindowPage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...(options.locale === undefined ? {} : { locale: options.locale }),
    ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId }),
    ...(options.hasTouch === undefined ? {} : { hasTouch: options.hasTouch }),
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (options.reconnects === true && LOST_SOCKET.test(message.text())) return;
    errors.push(message.text());
  });
  await page.goto(url);
  if (options.waitReady !== false) await windowReady(page, options.readyWithinMs);
  return { page, context, errors };
}

/** Waits until the window says it is logged in and connected. */
export async function windowReady(page: Page, withinMs = 10_000): Promise<void> {
  await expect.poll(() => page.locator('body').getAttribute('data-connection'), { timeout: withinMs }).toBe('ready');
}
