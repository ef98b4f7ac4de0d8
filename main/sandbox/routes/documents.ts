import type { RouteRegistrar } from '../app.js';

export const registerDocumentRoutes: RouteRegistrar = () => {};
