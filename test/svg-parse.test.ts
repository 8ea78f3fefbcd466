// The SVG reader on its own: the XML tokenizer (entities, CDATA, comments, malformed input), path
// data (every command, arcs to cubics), and the SVG subset resolved into groups and paths as data.
import { describe, expect, it } from 'vitest';
import { parseXml, XmlError } from '../src/svg/xml.js';
import { parsePathData, pathBounds, pathDataString, reversePath, signedArea } from '../src/svg/path-data.js';
import { parseSvg, SvgError, type SvgDocument, type SvgNode } from '../src/svg/parse.js';
import { colorKey, parseSvgColor } from '../src/svg/color.js';

const svg = (body: string, attrs = 'viewBox="0 0 100 100"'): string => `<svg xmlns="http://www.w3.org/2000/svg" ${attrs}>${body}</svg>`;
const shapes = (doc: SvgDocument): Extract<SvgNode, { kind: 'shape' }>[] => {
  const out: Extract<SvgNode, { kind: 'shape' }>[] = [];
  const walk = (ns: SvgNode[]): void => ns.forEach((n) => (n.kind === 'group' ? walk(n.children) : out.push(n)));
  walk(doc.nodes);
  return out;
};
const only = (body: string): Extract<SvgNode, { kind: 'shape' }> => {
  const s = shapes(parseSvg(svg(body)));
  expect(s).toHaveLength(1);
  return s[0]!;
};

describe('xml', () => {
  it('reads elements, attributes, self-closing tags, comments, CDATA, PIs and a DOCTYPE', () => {
    const root = parseXml(
      `\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<!-- hi --><a x='1' y="2"><b/><c>t<![CDATA[<raw & stuff>]]></c><?pi x?></a><!-- after -->`,
    );
    expect(root.name).toBe('a');
    expect(root.attributes).toEqual({ x: '1', y: '2' });
    expect(root.children.map((c) => c.name)).toEqual(['b', 'c']);
    expect(root.children[1]!.text).toBe('t<raw & stuff>');
    expect(root.line).toBe(3);
  });

  it('decodes the predefined and numeric entities in text and attributes', () => {
    const root = parseXml(`<a t="&amp;&lt;&gt;&quot;&apos;&#65;&#x42;&#x1F600;">&lt;x&gt;</a>`);
    expect(root.attributes.t).toBe(`&<>"'AB😀`);
    expect(root.text).toBe('<x>');
  });

  it.each([
    ['<a><b></a>', /line 1, column 7: <\/a> does not match the open <b>/],
    ['<a x="1" x="2"/>', /attribute x appears twice/],
    ['<a x=1/>', /expected a quoted value for attribute x/],
    ['<a>&nbsp;</a>', /unknown entity "&nbsp;"/],
    ['<a>AT&T</a>', /not a complete entity/],
    ['<a>', /<a> is never closed/],
    ['<a/><b/>', /unexpected content after the root/],
    ['<!DOCTYPE a [<!ENTITY x "y">]><a/>', /internal subset/],
    ['<a><!-- open', /comment "<!--" is never closed/],
    ['hello', /expected "<" to start the root element/],
    ['', /no <svg> element/],
    ['<a x="<"/>', /"<" is not allowed in the value/],
    ['<a>&#xD800;</a>', /not a valid character reference/],
  ])('refuses %j with a message that says where and what', (text, message) => {
    expect(() => parseXml(text)).toThrow(XmlError);
    expect(() => parseXml(text)).toThrow(message);
  });

  it('bounds nesting depth and element count', () => {
    expect(() => parseXml('<a>'.repeat(100) + '</a>'.repeat(100))).toThrow(/nested more than 64 deep/);
    expect(() => parseXml(`<a>${'<b/>'.repeat(20_001)}</a>`)).toThrow(/more than 20000 elements/);
  });
});

describe('path data', () => {
  it('turns every command into absolute M L C Q Z', () => {
    const d = pathDataString(parsePathData('m10 10 h5 v5 H0 V0 l1,1 L2 2 c1 1 2 2 3 3 s1 1 2 2 S0 0 1 1 q1 1 2 2 t1 1 T0 0 Q1 1 2 2 z l1 1'));
    expect(d).toBe(
      'M 10 10 L 15 10 L 15 15 L 0 15 L 0 0 L 1 1 L 2 2 C 3 3 4 4 5 5 C 6 6 6 6 7 7 C 8 8 0 0 1 1 Q 2 2 3 3 Q 4 4 4 4 Q 4 4 0 0 Q 1 1 2 2 Z M 10 10 L 11 11',
    );
  });

  it('reads compact numbers, implicit line-tos after M and exponents', () => {
    expect(pathDataString(parsePathData('M1.5.5-2-3 1e1,2E-1'))).toBe('M 1.5 0.5 L -2 -3 L 10 0.2');
  });

  it('converts arcs to cubics that pass through the end points', () => {
    const segs = parsePathData('M0 50 A50 50 0 0 1 100 50 A 50 50 0 0 1 0 50 Z');
    expect(segs.filter((s) => s.cmd === 'C')).toHaveLength(4);
    const box = pathBounds(segs)!;
    expect(box.x0).toBeCloseTo(0, 6);
    expect(box.x1).toBeCloseTo(100, 6);
    expect(box.y0).toBeCloseTo(0, 2);
    expect(box.y1).toBeCloseTo(100, 2);
    // Compact flags ("a1 1 0 011 1") and radii too small (scaled up to reach the end point).
    expect(parsePathData('M0 0a1 1 0 0110 0').at(-1)!.args.slice(-2)).toEqual([10, 0]);
  });

  it('refuses bad path data with the position', () => {
    expect(() => parsePathData('L 1 1')).toThrow(/must start with M/);
    expect(() => parsePathData('M 1 1 L 2')).toThrow(/character 10.*expected a number/);
    expect(() => parsePathData('M 1 1 X 2')).toThrow(/expected a path command/);
    expect(() => parsePathData('M0 0 A1 1 0 2 1 3 3')).toThrow(/arc flag/);
  });

  it('reverses subpaths and measures orientation', () => {
    const square = parsePathData('M0 0 L10 0 L10 10 L0 10 Z');
    expect(signedArea(square)).toBe(200);
    expect(signedArea(reversePath(square))).toBe(-200);
    expect(pathDataString(reversePath(parsePathData('M0 0 C1 1 2 2 3 3')))).toBe('M 3 3 C 2 2 1 1 0 0');
  });
});

describe('colours', () => {
  it('reads hex, rgb(), hsl() and names, and keys them as #rrggbbaa', () => {
    expect(colorKey(parseSvgColor('#F80')!)).toBe('#ff8800ff');
    expect(colorKey(parseSvgColor('rgb(255, 136, 0)')!)).toBe('#ff8800ff');
    expect(colorKey(parseSvgColor('rgba(100%,0%,0%,0.5)')!)).toBe('#ff000080');
    expect(colorKey(parseSvgColor('hsl(120, 100%, 50%)')!)).toBe('#00ff00ff');
    expect(colorKey(parseSvgColor('RebeccaPurple')!)).toBe('#663399ff');
    expect(colorKey(parseSvgColor('transparent')!)).toBe('#00000000');
    expect(parseSvgColor('nope')).toBeNull();
  });
});

describe('svg', () => {
  it('takes the viewBox, intrinsic size and preserveAspectRatio of the root', () => {
    const d = parseSvg(svg('', 'viewBox="10 20 200 100" width="50" preserveAspectRatio="xMinYMax slice"'));
    expect(d.viewBox).toEqual({ x: 10, y: 20, width: 200, height: 100 });
    expect([d.width, d.height]).toEqual([50, 25]);
    expect([d.align, d.slice]).toEqual(['xMinYMax', true]);
    // Without a viewBox: one from width and height, stretched (an <img> ignores preserveAspectRatio then).
    expect(parseSvg(svg('', 'width="2in" height="96pt" preserveAspectRatio="xMinYMin"'))).toMatchObject({
      viewBox: { x: 0, y: 0, width: 192, height: 128 },
      align: 'none',
    });
    expect(() => parseSvg(svg('', ''))).toThrow(/needs a viewBox/);
    expect(() => parseSvg(svg('', 'viewBox="0 0 0 10"'))).toThrow(/greater than 0/);
    expect(() => parseSvg('<html/>')).toThrow(/root element is <html>/);
  });

  it('reads every basic shape as a path', () => {
    const s = shapes(
      parseSvg(
        svg(
          '<rect x="1" y="2" width="3" height="4"/><rect width="10" height="10" rx="2"/><circle cx="5" cy="5" r="5"/><ellipse cx="5" cy="5" rx="5" ry="2"/>' +
            '<line x1="0" y1="0" x2="5" y2="5" stroke="red"/><polyline points="0,0 5,5 10,0" stroke="red" fill="none"/><polygon points="0 0 5 5 10 0"/>',
        ),
      ),
    );
    expect(s.map((x) => pathDataString(x.path).split(' ')[0]! + x.path.length)).toEqual(['M5', 'M10', 'M6', 'M6', 'M2', 'M3', 'M4']);
    expect(pathDataString(s[0]!.path)).toBe('M 1 2 L 4 2 L 4 6 L 1 6 Z');
    expect(pathBounds(s[2]!.path)).toEqual({ x0: 0, y0: 0, x1: 10, y1: 10 });
    // A rect with rx only gets ry = rx; circles and rects start at 3 o'clock / top-left + rx, clockwise.
    expect(pathDataString(s[1]!.path).startsWith('M 2 0 L 8 0 C')).toBe(true);
  });

  it('resolves fill and stroke from attributes, style="" and <style>, with inheritance and currentColor', () => {
    const s = shapes(
      parseSvg(
        svg(
          '<style>/* c */ .red { fill: red } #x { stroke: blue; stroke-width: 3 } path.big, rect { opacity: .5 }</style>' +
            '<g fill="green" stroke-linecap="round" color="#00f"><path class="red big" d="M0 0h1v1z" fill="yellow"/><path id="x" d="M0 0h1" style="fill:none !important"/>' +
            '<path d="M0 0h1v1z" stroke="currentColor" stroke-dasharray="1 2 3" stroke-linejoin="bevel" fill-rule="evenodd" fill-opacity="50%"/></g>',
        ),
      ),
    );
    expect(s[0]!.fill).toEqual({ kind: 'color', color: [255, 0, 0, 1] });
    expect(s[0]!.opacity).toBe(0.5);
    expect(s[1]!.fill).toBeNull();
    expect(s[1]!.stroke).toMatchObject({ paint: { kind: 'color', color: [0, 0, 255, 1] }, width: 3, cap: 'round' });
    expect(s[2]!.fill).toEqual({ kind: 'color', color: [0, 128, 0, 1] });
    expect(s[2]!.stroke).toMatchObject({ paint: { color: [0, 0, 255, 1] }, dash: [1, 2, 3, 1, 2, 3], join: 'bevel', miterLimit: 4 });
    expect(s[2]!.evenOdd).toBe(true);
    expect(s[2]!.fillOpacity).toBe(0.5);
  });

  it('skips @media (prefers-color-scheme: dark) blocks: renders are in the light scheme, as an <img> by default', () => {
    const s = only('<style>path { fill: blue } @media (prefers-color-scheme: dark) { path { fill: white } }</style><path d="M0 0h1v1z"/>');
    expect(s.fill).toEqual({ kind: 'color', color: [0, 0, 255, 1] });
  });

  it('reads transforms', () => {
    const g = parseSvg(svg('<g transform="translate(10,20) scale(2) rotate(90 1 1) skewX(0) skewY(0) matrix(1 0 0 1 0 0)"><path d="M0 0h1"/></g>')).nodes[0]!;
    expect(g.kind).toBe('group');
    const [a, b, c, d, e, f] = g.transform;
    expect([a, b, c, d, e, f].map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0, 2, -2, 0, 14, 20]);
    expect(() => parseSvg(svg('<g transform="translate(1,2) wobble(3)"/>'))).toThrow(/could not be read near "wobble\(3\)"/);
    expect(() => parseSvg(svg('<g transform="rotate(1,2)"/>'))).toThrow(/wrong number of values/);
  });

  it('maps gradients with bounding-box units, gradientTransform and href onto the shape', () => {
    const s = only(
      '<defs><linearGradient id="base" x2="0" y2="1"><stop offset="0" stop-color="red"/><stop offset="50%" stop-color="blue" stop-opacity=".5"/></linearGradient>' +
        '<linearGradient id="g" href="#base" gradientTransform="rotate(90)"/><radialGradient id="r" gradientUnits="userSpaceOnUse" cx="50" cy="50" r="50"><stop offset="1" stop-color="#000"/></radialGradient></defs>' +
        '<rect x="10" y="20" width="30" height="40" fill="url(#g)"/>',
    );
    expect(s.fill?.kind).toBe('gradient');
    if (s.fill?.kind !== 'gradient') return;
    expect(s.fill.gradient).toMatchObject({
      kind: 'linear',
      from: [0, 0],
      to: [0, 1],
      stops: [
        { offset: 0, color: [255, 0, 0, 1] },
        { offset: 0.5, color: [0, 0, 255, 0.5] },
      ],
    });
    const t = s.fill.gradient.transform.map((v) => Math.round(v * 1e9) / 1e9);
    expect(t).toEqual([0, 40, -30, 0, 10, 20]);
    // One stop paints its colour.
    expect(
      only('<defs><radialGradient id="r"><stop offset="1" stop-color="#000"/></radialGradient></defs><rect width="5" height="5" fill="url(#r)"/>').fill,
    ).toEqual({
      kind: 'color',
      color: [0, 0, 0, 1],
    });
  });

  it('expands <use> with its x/y, and skips defs, metadata, editor elements and display:none', () => {
    const d = parseSvg(
      svg(
        '<title>t</title><metadata/><sodipodi:namedview/><defs><path id="p" d="M0 0h5v5z"/><filter id="f"/></defs><use href="#p" x="3" y="4"/><use xlink:href="#p"/><path d="M0 0h1" display="none"/>',
      ),
    );
    expect(d.nodes).toHaveLength(2);
    expect(d.nodes[0]).toMatchObject({ kind: 'group', transform: [1, 0, 0, 1, 3, 4] });
  });

  it.each([
    ['<text>hi</text>', /<text> at line 1, column \d+: <text> is not supported.*supported are svg, g/],
    ['<image href="x.png"/>', /<image>.*not supported/],
    ['<g filter="url(#f)"><path d="M0 0h1"/></g>', /filter="url\(#f\)" is not supported/],
    ['<path d="M0 0h1" clip-path="url(#c)"/>', /clip-path=.* is not supported/],
    ['<path d="M0 0h1" style="mask:url(#m)"/>', /mask="url\(#m\)" names no element/],
    ['<svg/>', /a nested <svg> is not supported/],
    ['<blink/>', /unknown element <blink>/],
    ['<defs><pattern id="p"/></defs><path d="M0 0h1" fill="url(#p)"/>', /refers to a <pattern>: only linearGradient and radialGradient/],
    ['<defs><radialGradient id="r" fx="0.2"><stop/><stop offset="1"/></radialGradient></defs><path d="M0 0h1v1z" fill="url(#r)"/>', /focal point/],
    [
      '<defs><linearGradient id="r" spreadMethod="reflect"><stop/><stop offset="1"/></linearGradient></defs><path d="M0 0h1v1z" fill="url(#r)"/>',
      /spreadMethod="reflect"/,
    ],
    ['<defs><linearGradient id="r"><stop/><stop offset="1"/></linearGradient></defs><path d="M0 0h1v1z" stroke="url(#r)"/>', /gradient on a stroke/],
    ['<use href="#a"/><g id="a"><use href="#a"/></g>', /refers to itself/],
    ['<use href="#nope"/>', /no id="nope"/],
    ['<path d="M0 0 Q"/>', /path data at character 7.*fix the d attribute/],
    ['<path d="M0 0h1" fill="blurple"/>', /fill="blurple" is not a colour/],
    ['<rect width="1em" height="1"/>', /width="1em" is not a length/],
    ['<polygon points="0 0 1"/>', /odd count/],
    ['<style>g > path { fill: red }</style>', /selector "g > path" is not supported/],
    ['<style>@media print { path { fill: red } }</style>', /"@media print" is not supported/],
    ['<style>@import url(x.css);</style>', /"@import url\(x.css\);" is not supported/],
    ['<path d="M0 0h1" style="transform: rotate(3deg)"/>', /CSS transform in style is not supported/],
  ])('refuses %s', (body, message) => {
    expect(() => parseSvg(svg(body))).toThrow(SvgError);
    expect(() => parseSvg(svg(body))).toThrow(message);
  });

  it('refuses malformed XML and bounds <use> expansion', () => {
    expect(() => parseSvg('<svg viewBox="0 0 1 1"><g></svg>')).toThrow(/not well-formed XML: line 1, column 27: <\/svg> does not match the open <g>/);
    // Ten levels of ten uses each would be 10^10 shapes.
    let body = '<defs><path id="l0" d="M0 0h1"/>';
    for (let k = 1; k <= 10; k++) body += `<g id="l${k}">${`<use href="#l${k - 1}"/>`.repeat(10)}</g>`;
    expect(() => parseSvg(svg(`${body}</defs><use href="#l10"/>`))).toThrow(/more than 50000 shapes/);
    // The same with nothing to draw at the bottom still stops: visits are counted, not only shapes.
    let empty = '<defs><g id="e0"/>';
    for (let k = 1; k <= 10; k++) empty += `<g id="e${k}">${`<use href="#e${k - 1}"/>`.repeat(10)}</g>`;
    expect(() => parseSvg(svg(`${empty}</defs><use href="#e10"/>`))).toThrow(/more than 200000 elements to visit/);
    // A long chain of <use>s, each referring to the next.
    let chain = '<defs><path id="c0" d="M0 0h1"/>';
    for (let k = 1; k <= 40; k++) chain += `<use id="c${k}" href="#c${k - 1}"/>`;
    expect(() => parseSvg(svg(`${chain}</defs><use href="#c40"/>`))).toThrow(/more than 32 deep/);
  });
});
