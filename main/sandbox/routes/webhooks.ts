import type { RouteRegistrar } from '../app.js';

export const registerWebhookRoutes: RouteRegistrar = () => {};
