import type { RouteRegistrar } from '../app.js';

export const registerBuyerRoutes: RouteRegistrar = () => {};
