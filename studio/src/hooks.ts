// Small Preact hooks the views share: the hash route, an element's size (ResizeObserver), and data
// loaded with an AbortController that a newer load or unmounting cancels.
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { isApiError, networkError, type ApiError } from './lib/api-errors.js';
import { parseRoute, type Route } from './lib/routes.js';

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

export function useElementSize<T extends HTMLElement>(): [RefObject<T>, { width: number; height: number }] {
  const ref = useRef<T>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const { width, height } = entry.contentRect;
      setSize((s) => (Math.abs(s.width - width) < 1 && Math.abs(s.height - height) < 1 ? s : { width, height }));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, size];
}

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `deps` change (cancelling the previous run), on reload(), and after a 429's retry-after. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const ctl = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    setState((s) => ({ ...s, loading: true }));
    load(ctl.signal).then(
      (data) => {
        if (!ctl.signal.aborted) setState({ data, loading: false });
      },
      (e: unknown) => {
        if (ctl.signal.aborted) return;
        const error = isApiError(e) ? e : networkError(e);
        setState({ error, loading: false });
        // Over the plan's rate: load again when the service says it will answer.
        if (error.status === 429) retry = setTimeout(() => setTick((t) => t + 1), (error.retryAfter ?? 5) * 1000 + 50);
      },
    );
    return () => {
      clearTimeout(retry);
      ctl.abort();
    };
    // The caller's deps decide when to load again (load itself is a new closure each render).
  }, [...deps, tick]);
  return { data: state.data, error: state.error, loading: state.loading, reload: () => setTick((t) => t + 1) };
}
