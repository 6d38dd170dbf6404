/**
 * `useApi(url)`: GET a JSON route and keep its answer. A new url aborts the old request; the last
 * good answer stays on screen while a reload or poll runs, so polling never flashes a spinner.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type ApiRequestError, asApiRequestError } from '../api/api-error.js';
import { getJson } from '../api/client.js';

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

export function useApi<T>(url: string | null, options: ApiOptions = {}): ApiState<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiRequestError | undefined>(undefined);
  const [loading, setLoading] = useState(url !== null);
  const [generation, setGeneration] = useState(0);
  const lastUrl = useRef<string | null>(null);

  useEffect(() => {
    if (url === null) {
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
    getJson<T>(url, controller.signal).then(
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
