// Foreign design formats at the door: a Polotno store JSON is converted to an Imprint design (plus
// the files its data: URLs embed) before parse, and errors found later are traced back to its fields.
import { ImprintError } from '../errors.js';
import { convertPolotno, isPolotnoDocument, polotnoPath, type PolotnoConversion, type PolotnoOptions } from './polotno/convert.js';

export type InputFormat = 'auto' | 'imprint' | 'polotno';

export interface ImportedDesign {
  /** The Imprint design (unvalidated): the input itself, or the conversion of a foreign one. */
  design: unknown;
  /** Files the design refers to by relative path that came with the input: data: URLs, and remote files an import fetched. */
  files: ReadonlyMap<string, Uint8Array>;
  /** Present when the input was converted: maps error paths back to the input. */
  conversion?: PolotnoConversion;
  /** Where the document sits in the request (`$`, `$.pages[1].design`). */
  root: string;
}

const NO_FILES: ReadonlyMap<string, Uint8Array> = new Map();

/** Converts a foreign document to an Imprint design; an Imprint one passes through unchanged. */
export function convertInput(
  value: unknown,
  { format = 'auto', root = '$', hasFamily, remote, textSplitAllowed }: { format?: InputFormat; root?: string } & Omit<PolotnoOptions, 'root'> = {},
): ImportedDesign {
  if (format === 'imprint' || (format === 'auto' && !isPolotnoDocument(value))) {
    // Only a conversion reads it: silently ignoring it would leave the caller believing it took effect.
    if (textSplitAllowed === true) {
      throw new ImprintError(
        'validation_error',
        '$.textSplitAllowed',
        `textSplitAllowed applies to Polotno documents, and the design at ${root} is an Imprint design: leave textSplitAllowed out or false (a design converted from Polotno keeps the choice made when it was imported: npx imprint import polotno --text-split-allowed), or give the Polotno JSON`,
      );
    }
    return { design: value, files: NO_FILES, root };
  }
  const conversion = convertPolotno(value, {
    root,
    ...(hasFamily ? { hasFamily } : {}),
    ...(remote ? { remote } : {}),
    ...(textSplitAllowed === undefined ? {} : { textSplitAllowed }),
  });
  return { design: conversion.design, files: conversion.files, conversion, root };
}

/**
 * An error about the converted design, pointed at the field of the input it came from; the message
 * keeps the converted field's name so the reason stays readable. Other errors pass through.
 */
export function traceError(imported: ImportedDesign, e: unknown): unknown {
  const conversion = imported.conversion;
  if (!conversion || !(e instanceof ImprintError)) return e;
  const { root } = imported;
  if (e.path !== root && !e.path.startsWith(`${root}.`) && !e.path.startsWith(`${root}[`)) return e;
  const relative = `$${e.path.slice(root.length)}`;
  const origin = polotnoPath(conversion, relative);
  if (origin === undefined) return e;
  // A family's file is given in Polotno's own form: fonts[] of the document, or the CLI's --font.
  const message = e.message.replace(
    /ship its file as \{"family": "([^"]*)", "path": "fonts\/….woff2"\}/,
    (_, family: string) => `add its file to the document's fonts[] as {"fontFamily": "${family}", "url": "fonts/….ttf"} (CLI: --font <file>)`,
  );
  const traced = new ImprintError(e.code, origin, `${message} (in the Imprint design converted from this Polotno document, at ${relative})`, { cause: e });
  return traced;
}
