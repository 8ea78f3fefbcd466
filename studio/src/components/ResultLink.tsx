// A link to a task's result that saves it under a name after the design (`card-1080-task-12.png`,
// lib/results.ts): the result's own address with `?download=<name>`, which the service answers with
// `Content-Disposition: attachment` and that name (or a presigned S3 address that names it), so the
// browser saves the file itself, whatever its size and wherever results are stored.
import type { ComponentChildren } from 'preact';
import { downloadUrl } from '../lib/results.js';

interface Props {
  url: string;
  fileName: string;
  children: ComponentChildren;
}

export function ResultLink({ url, fileName, children }: Props) {
  return (
    <a href={downloadUrl(url, fileName)} download={fileName} rel="noreferrer">
      {children}
    </a>
  );
}
