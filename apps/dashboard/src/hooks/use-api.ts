/**
 * `useApi(route, args)`: GET a JSON route and keep its answer, typed by the route's answer. New
 * args (a new URL) abort the old request; the last good answer stays on screen while a reload or
 * poll runs, so polling never flashes a spinner. `args` null: nothing to fetch yet.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type ApiRequestError, asApiRequestError } from '../api/api-error.js';
import { getJson } from '../api/client.js';
import { type ResponseOf, type Route, type RouteArgs, urlOf } from '../api/routes.js';

export interface ApiState<T> {
  data: T | undefined;
  error: ApiRequestError | undefined;
  /** True until the first answer (or error) for the current url. */
  loading: boolean;
  reload: () => void;
  /** Replace the data locally (live updates) without a request. */
  setData: (data: T) => void;
}

export interface ApiOptions {
  /** Re-fetch every this many ms (silently: the old answer stays until the new one arrives). */
  pollMs?: number;
  /**
   * Keep showing the previous url's answer until the new one arrives (a list re-sorted or
   * filtered should not blink empty), instead of clearing it.
   */
  keepPrevious?: boolean;
}

/** A route `useApi` can read: one JSON answer to a GET. */
export type JsonRoute = Route<string, unknown, unknown, 'GET', 'json'>;

export function useApi<R extends JsonRoute>(
  route: R,
  args: RouteArgs<R> | null,
  options: ApiOptions = {},
): ApiState<ResponseOf<R>> {
  type T = ResponseOf<R>;
  // The URL is the request's identity: args objects are new on every render, their URL is not.
  const url = args === null ? null : urlOf(route, args);
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiRequestError | undefined>(undefined);
  const [loading, setLoading] = useState(url !== null);
  const [generation, setGeneration] = useState(0);
  const lastUrl = useRef<string | null>(null);

  useEffect(() => {
    if (url === null || args === null) {
      setLoading(false);
      return;
    }
    if (lastUrl.current !== url) {
      // Another resource: forget the old answer rather than show it under the new heading.
      lastUrl.current = url;
      if (!options.keepPrevious) {
        setData(undefined);
        setLoading(true);
      }
      setError(undefined);
    }
    const controller = new AbortController();
    getJson(route, args, controller.signal).then(
      (answer) => {
        setData(answer);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(asApiRequestError(failure));
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [url, generation]);

  useEffect(() => {
    if (url === null || options.pollMs === undefined) return;
    const timer = setInterval(() => setGeneration((g) => g + 1), options.pollMs);
    return () => clearInterval(timer);
  }, [url, options.pollMs]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data, error, loading, reload, setData };
}
