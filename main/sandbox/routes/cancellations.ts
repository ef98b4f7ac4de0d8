import type { RouteRegistrar } from '../app.js';

export const registerCancellationRoutes: RouteRegistrar = () => {};
