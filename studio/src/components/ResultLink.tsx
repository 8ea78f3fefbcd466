// A link to a task's result that saves it under a name after the design (`card-1080-task-12.png`,
// lib/results.ts): the result's own address with `?download=<name>`, which the service answers with
// `Content-Disposition: attachment` and that name (or a presigned S3 address that names it), so the
// browser saves the file itself, whatever its size and wherever results are stored. The address is
// taken on the page's own origin: the service writes result URLs with its configured base, which may
// name it by another host than the page was opened with, and a link to another origin would be
// followed as a navigation (asking to leave a page with edits) instead of saved.
import type { ComponentChildren } from 'preact';
import { downloadUrl, sameOriginResult } from '../lib/results.js';

interface Props {
  url: string;
  fileName: string;
  children: ComponentChildren;
}

export function ResultLink({ url, fileName, children }: Props) {
  return (
    <a href={downloadUrl(sameOriginResult(url) ?? url, fileName)} download={fileName} rel="noreferrer">
      {children}
    </a>
  );
}
