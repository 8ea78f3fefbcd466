// An error as the user sees it: an alert (role=alert, read out when it appears) with the code, the
// JSON path in <code> and the service's message, which says how to fix it.
import type { ApiError } from '../lib/api-errors.js';

export function ErrorAlert({ error, prefix }: { error: ApiError | string | null | undefined; prefix?: string }) {
  if (!error) return null;
  if (typeof error === 'string') {
    return (
      <div role="alert" class="alert">
        {prefix ? `${prefix}: ` : ''}
        {error}
      </div>
    );
  }
  return (
    <div role="alert" class="alert">
      {prefix ? `${prefix}: ` : ''}
      <strong>{error.code}</strong>
      {error.path ? (
        <>
          {' at '}
          <code>{error.path}</code>
        </>
      ) : null}
      {': '}
      {error.message}
      {error.retryAfter !== undefined && !/retry/i.test(error.message) ? ` (retry in ${error.retryAfter} s)` : ''}
    </div>
  );
}
