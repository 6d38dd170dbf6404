/**
 * `@hankweave/dashboard/server`: the dashboard's HTTP server (its JSON API over the route table
 * of `src/api/routes.ts`, and the built web app), started by `hankweave ui`.
 */
export {
  DASHBOARD_ERROR_CODES,
  DashboardError,
  type DashboardErrorCode,
} from './errors.js';
export { type FleetRow, FleetSource } from './fleet-source.js';
export { isLoopback } from './http/security.js';
export { startUiServer, type UiServer, type UiServerOptions } from './start-ui-server.js';
