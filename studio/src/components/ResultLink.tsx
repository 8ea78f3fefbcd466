// A link to a task's result that saves it under a name after the design (`card-1080-task-12.png`,
// lib/results.ts). The service names the file `task-12.png` in its Content-Disposition, which a
// browser prefers to a link's download attribute, so a plain click reads the result from the page's
// own origin and saves that copy (a blob: URL has no such header). The href stays the result's
// address, for a new tab or a copied link; a click with a modifier key, or a result the page cannot
// read (one the service redirects to a presigned S3 address), is left to the browser.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { sameOriginResult } from '../lib/results.js';

interface Props {
  url: string;
  fileName: string;
  children: ComponentChildren;
}

export function ResultLink({ url, fileName, children }: Props) {
  const [busy, setBusy] = useState(false);
  const onClick = async (e: MouseEvent) => {
    const local = sameOriginResult(url);
    if (!local || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    setBusy(true);
    try {
      // `manual`: a redirect (S3) is not followed into an origin the page's CSP does not allow.
      const res = await fetch(local, { credentials: 'omit', redirect: 'manual' });
      if (!res.ok) throw new Error(`the result answered ${res.status}`);
      save(await res.blob(), fileName);
    } catch {
      window.open(url, '_blank', 'noreferrer');
    } finally {
      setBusy(false);
    }
  };
  return (
    <a href={url} download={fileName} target="_blank" rel="noreferrer" aria-busy={busy ? 'true' : undefined} onClick={(e) => void onClick(e)}>
      {children}
    </a>
  );
}

function save(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has started from the blob by now; a minute leaves room for a slow disk.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
