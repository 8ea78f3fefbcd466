// A small strict XML reader for SVG files: elements, attributes, self-closing tags, comments, CDATA,
// processing instructions and the predefined and numeric entities, into a plain element tree. No DTDs
// (no entity expansion attacks), no namespaces beyond keeping prefixes in names; bounded in size and depth.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Character data directly inside the element (text and CDATA), concatenated; used by <style>. */
  text: string;
  /** 1-based position of the start tag, for messages. */
  line: number;
  column: number;
}

export const XML_LIMITS = {
  maxElements: 20_000,
  maxDepth: 64,
  maxAttributes: 256,
} as const;

/** A malformed or over-limit document; the message says where (line, column) and what was expected. */
export class XmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlError';
  }
}

const NAME_START = /[A-Za-z_:]/;
const NAME_CHAR = /[-A-Za-z0-9_:.]/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Parses a whole document and returns its root element. Throws XmlError. */
export function parseXml(source: string): XmlElement {
  let i = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  let elements = 0;
  // Line starts, for positions in messages (binary search: every element records where it starts).
  const lineStarts = [0];
  for (let k = 0; k < source.length; k++) if (source.charCodeAt(k) === 10) lineStarts.push(k + 1);
  const lineCol = (pos: number): { line: number; column: number } => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: pos - lineStarts[lo]! + 1 };
  };
  const fail = (pos: number, message: string): never => {
    const { line, column } = lineCol(pos);
    throw new XmlError(`line ${line}, column ${column}: ${message}`);
  };
  const startsWith = (s: string): boolean => source.startsWith(s, i);
  const skipSpace = (): void => {
    while (i < source.length && /\s/.test(source[i]!)) i++;
  };
  const readName = (what: string): string => {
    const start = i;
    if (!NAME_START.test(source[i] ?? '')) fail(i, `expected ${what} but found ${describe(source[i])}`);
    while (i < source.length && NAME_CHAR.test(source[i]!)) i++;
    return source.slice(start, i);
  };
  const decode = (raw: string, pos: number): string =>
    raw.replace(/&([^;&\s]*);?/g, (whole, ref: string) => {
      if (!whole.endsWith(';')) fail(pos, `"&${ref}" is not a complete entity: write "&amp;" for a literal ampersand`);
      if (ref.startsWith('#')) {
        const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : /^#\d+$/.test(ref) ? parseInt(ref.slice(1), 10) : NaN;
        if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
          fail(pos, `"&${ref};" is not a valid character reference`);
        return String.fromCodePoint(code);
      }
      const e = ENTITIES[ref];
      if (e === undefined) return fail(pos, `unknown entity "&${ref};": only &amp; &lt; &gt; &quot; &apos; and &#…; are allowed (no DTD entities)`);
      return e;
    });
  /** Comments, processing instructions and (outside the root) a DOCTYPE without an internal subset. */
  const skipMisc = (prolog: boolean): boolean => {
    if (startsWith('<!--')) {
      const end = source.indexOf('-->', i + 4);
      if (end < 0) fail(i, 'comment "<!--" is never closed with "-->"');
      i = end + 3;
      return true;
    }
    if (startsWith('<?')) {
      const end = source.indexOf('?>', i + 2);
      if (end < 0) fail(i, 'processing instruction "<?" is never closed with "?>"');
      i = end + 2;
      return true;
    }
    if (prolog && startsWith('<!DOCTYPE')) {
      const end = source.indexOf('>', i);
      if (end < 0) fail(i, 'DOCTYPE is never closed with ">"');
      if (source.slice(i, end).includes('[')) fail(i, 'DOCTYPE with an internal subset ("[ … ]") is not allowed: remove the DOCTYPE (SVG needs none)');
      i = end + 1;
      return true;
    }
    return false;
  };

  const parseElement = (depth: number): XmlElement => {
    const start = i;
    if (depth > XML_LIMITS.maxDepth) fail(start, `elements are nested more than ${XML_LIMITS.maxDepth} deep: flatten the groups`);
    if (++elements > XML_LIMITS.maxElements) fail(start, `more than ${XML_LIMITS.maxElements} elements: simplify the drawing`);
    i++; // '<'
    const name = readName('an element name after "<"');
    const attributes: Record<string, string> = {};
    let count = 0;
    for (;;) {
      const before = i;
      skipSpace();
      if (startsWith('/>')) {
        i += 2;
        return { name, attributes, children: [], text: '', ...lineCol(start) };
      }
      if (startsWith('>')) {
        i++;
        break;
      }
      if (i >= source.length) fail(start, `start tag <${name}> is never closed with ">"`);
      if (i === before) fail(i, `expected whitespace, ">" or "/>" in <${name}> but found ${describe(source[i])}`);
      const attrAt = i;
      const attr = readName(`an attribute name, ">" or "/>" in <${name}>`);
      skipSpace();
      if (source[i] !== '=') fail(i, `expected "=" after attribute ${attr} of <${name}> but found ${describe(source[i])}`);
      i++;
      skipSpace();
      const quote = source[i];
      if (quote !== '"' && quote !== "'") fail(i, `expected a quoted value for attribute ${attr} of <${name}> but found ${describe(quote)}`);
      const end = source.indexOf(quote!, i + 1);
      if (end < 0) fail(i, `the value of attribute ${attr} of <${name}> is never closed with ${quote}`);
      const raw = source.slice(i + 1, end);
      if (raw.includes('<')) fail(i, `"<" is not allowed in the value of attribute ${attr}: write "&lt;"`);
      if (Object.hasOwn(attributes, attr)) fail(attrAt, `attribute ${attr} appears twice in <${name}>`);
      if (++count > XML_LIMITS.maxAttributes) fail(attrAt, `more than ${XML_LIMITS.maxAttributes} attributes in <${name}>`);
      attributes[attr] = decode(raw, i).replace(/[\t\n\r]/g, ' ');
      i = end + 1;
    }
    const children: XmlElement[] = [];
    let text = '';
    for (;;) {
      if (i >= source.length) fail(start, `<${name}> is never closed: add </${name}>`);
      if (startsWith('</')) {
        const closeAt = i;
        i += 2;
        const close = readName('an element name after "</"');
        skipSpace();
        if (source[i] !== '>') fail(i, `expected ">" to end </${close}> but found ${describe(source[i])}`);
        i++;
        if (close !== name) fail(closeAt, `</${close}> does not match the open <${name}>`);
        return { name, attributes, children, text, ...lineCol(start) };
      }
      if (startsWith('<![CDATA[')) {
        const end = source.indexOf(']]>', i);
        if (end < 0) fail(i, 'CDATA section is never closed with "]]>"');
        text += source.slice(i + 9, end);
        i = end + 3;
        continue;
      }
      if (skipMisc(false)) continue;
      if (startsWith('<!')) fail(i, `unexpected "<!" inside <${name}>: only comments and CDATA sections may start with "<!"`);
      if (startsWith('<')) {
        children.push(parseElement(depth + 1));
        continue;
      }
      const next = source.indexOf('<', i);
      const end = next < 0 ? source.length : next;
      text += decode(source.slice(i, end), i);
      i = end;
    }
  };

  for (;;) {
    skipSpace();
    if (i >= source.length) fail(i, 'no <svg> element: the file is empty or has only comments');
    if (skipMisc(true)) continue;
    if (source[i] !== '<') fail(i, `expected "<" to start the root element but found ${describe(source[i])}: is this an SVG file?`);
    break;
  }
  const root = parseElement(0);
  for (;;) {
    skipSpace();
    if (i >= source.length) return root;
    if (skipMisc(false)) continue;
    fail(i, `unexpected content after the root </${root.name}>: a document has one root element`);
  }
}

function describe(ch: string | undefined): string {
  if (ch === undefined) return 'the end of the file';
  return JSON.stringify(ch);
}
