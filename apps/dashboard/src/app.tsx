/**
 * The app shell: server info for every view, the top bar, and the routes (deep links, one URL per
 * execution, codon and checkpoint pair). Detail pages load as separate chunks so the list, the
 * first page most people open, does not wait for uPlot or jsdiff.
 */
import lazy from 'preact-iso/lazy';
import { LocationProvider, Route, Router } from 'preact-iso/router';
import { pages } from './api/paths.js';
import { routes } from './api/routes.js';
import { EmptyState, ErrorPanel } from './components/feedback.js';
import { ServerInfoContext } from './hooks/server-info.js';
import { useApi } from './hooks/use-api.js';
import { ExecutionsPage } from './views/executions/executions-page.js';

const ExecutionPage = lazy(() => import('./views/execution/execution-page.js'));
const CodonPage = lazy(() => import('./views/codon/codon-page.js'));
const CheckpointsPage = lazy(() => import('./views/checkpoints/checkpoints-page.js'));

function NotFound() {
  return (
    <EmptyState>
      <p>
        No page at <code>{location.pathname}</code>.
      </p>
      <a href={pages.executions()}>All executions</a>
    </EmptyState>
  );
}

export function App() {
  const info = useApi(routes.info, {});
  return (
    <ServerInfoContext.Provider value={info.data}>
      <LocationProvider>
        <header class="topbar">
          <a href={pages.executions()} class="brand" data-testid="nav-executions">
            hankweave
          </a>
          {info.data !== undefined && (
            <span
              class="muted mono base-dir"
              data-testid="server-info"
              data-write={String(info.data.write)}
              title="Base directory"
            >
              {info.data.baseDir}
            </span>
          )}
          <span class="spacer" />
          {info.data?.write === true && (
            <span class="tag write" title="Started with --write: actions are enabled">
              write
            </span>
          )}
          {info.data !== undefined && <span class="muted">v{info.data.version}</span>}
        </header>
        <main>
          {info.error !== undefined && <ErrorPanel error={info.error} onRetry={info.reload} />}
          <Router>
            <Route path="/" component={ExecutionsPage} />
            <Route path="/executions/:id" component={ExecutionPage} />
            <Route path="/executions/:id/codons/:codonKey" component={CodonPage} />
            <Route path="/executions/:id/checkpoints" component={CheckpointsPage} />
            <Route default component={NotFound} />
          </Router>
        </main>
      </LocationProvider>
    </ServerInfoContext.Provider>
  );
}
