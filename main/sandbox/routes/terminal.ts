import type { RouteRegistrar } from '../app.js';

export const registerTerminalRoutes: RouteRegistrar = () => {};
