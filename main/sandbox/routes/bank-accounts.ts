import type { RouteRegistrar } from '../app.js';

export const registerBankAccountRoutes: RouteRegistrar = () => {};
