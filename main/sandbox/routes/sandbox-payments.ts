import type { RouteRegistrar } from '../app.js';

export const registerSandboxPaymentRoutes: RouteRegistrar = () => {};
