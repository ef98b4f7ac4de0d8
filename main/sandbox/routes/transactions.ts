import type { RouteRegistrar } from '../app.js';

export const registerTransactionRoutes: RouteRegistrar = () => {};
