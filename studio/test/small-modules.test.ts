// The Studio's smaller pure modules: hash routes, the design type and formats, prices, the timeline's
// slide at a time and play frames, the remembered uploads (sessionStorage stands in as a Map), and the
// render progress in words.
import { describe, expect, it } from 'vitest';
import { designType, formatsFor, moneyText, renderPrice, sizeText, usesInterfaceB } from '../src/lib/designs.js';
import { progressText } from '../src/lib/progress.js';
import { parseRoute, routeHash } from '../src/lib/routes.js';
import { clampTime, nextFrameTime, slideIndexAt, slideSpans } from '../src/lib/timeline.js';
import { isUploadUrl, listUploads, MAX_REMEMBERED, rememberUpload, uploadLabel, type KeyValueStore } from '../src/lib/upload-history.js';

describe('routes', () => {
  it('parses and writes the hash routes', () => {
    for (const [hash, route] of [
      ['', { view: 'designs' }],
      ['#/', { view: 'designs' }],
      ['#/designs/42', { view: 'design', id: 42 }],
      ['#/designs/42/', { view: 'design', id: 42 }],
      ['#/tasks', { view: 'tasks' }],
      ['#/import', { view: 'import' }],
      ['#/designs/abc', { view: 'unknown', hash: '#/designs/abc' }],
      ['#/designs/1e3', { view: 'unknown', hash: '#/designs/1e3' }],
    ] as const) {
      expect(parseRoute(hash), hash).toEqual(route);
      if (route.view !== 'unknown' && hash.length > 1 && !hash.endsWith('42/')) expect(routeHash(route)).toBe(hash);
    }
  });
});

describe('designs', () => {
  const still = { kind: 'design', animated: false, width: 1080, height: 1080 } as const;
  const promo = { kind: 'design', animated: true } as const;
  const slides = { kind: 'video', animated: true } as const;

  it('labels the type and size as the grid shows them', () => {
    expect([designType(still), designType(promo), designType(slides)]).toEqual(['image', 'animated', 'video']);
    expect(sizeText(still)).toBe('1080 × 1080');
    // A print design (A4 at 300 dpi) is shown to a thousandth of a pixel.
    expect(sizeText({ width: (210 / 25.4) * 300, height: (297 / 25.4) * 300 })).toBe('2480.315 × 3507.874');
  });

  it('offers mp4 only for designs that move, through interface B only for video designs', () => {
    expect(formatsFor(still)).toEqual(['png', 'jpg', 'webp', 'avif', 'pdf']);
    expect(formatsFor(promo)).toEqual(['png', 'jpg', 'webp', 'avif', 'pdf', 'mp4']);
    expect(usesInterfaceB(promo, 'mp4')).toBe(false);
    expect(usesInterfaceB(slides, 'mp4')).toBe(true);
    expect(usesInterfaceB(slides, 'png')).toBe(false);
  });

  it('prices a video render from the design, free in demo mode', () => {
    const d = { prices: { 'sd/30': 0.15, 'sd/60': 0.225, 'hd/30': 0.3, 'hd/60': 0.45 } };
    expect(renderPrice(d, 'hd', 60, false)).toBe(0.45);
    expect(renderPrice(d, 'hd', 60, true)).toBe(0);
    expect(renderPrice({ prices: null }, 'sd', 30, false)).toBeUndefined();
    expect([moneyText(10), moneyText(0.15), moneyText(0.125)]).toEqual(['10.00', '0.15', '0.125']);
  });
});

describe('timeline', () => {
  const slides = [
    { name: 'intro', duration: 3, objects: [] },
    { name: 'middle', duration: 4, objects: [] },
    { name: 'outro', duration: 2, objects: [] },
  ];

  it('finds the slide on screen at a time; the last holds its last frame', () => {
    expect(slideSpans(slides).map((s) => [s.start, s.end])).toEqual([
      [0, 3],
      [3, 7],
      [7, 9],
    ]);
    expect([0, 2.99, 3, 6.5, 7, 9, 12].map((t) => slideIndexAt(slides, t))).toEqual([0, 0, 1, 1, 2, 2, 2]);
    expect(slideIndexAt([], 1)).toBe(-1);
  });

  it('steps play frames at the fps and loops after the end', () => {
    expect(nextFrameTime(0, 15, 4)).toBe(0.25);
    expect(nextFrameTime(14.9, 15, 4)).toBe(0);
    expect(clampTime(-1, 15)).toBe(0);
    expect(clampTime(99, 15)).toBe(15);
    expect(clampTime(NaN, 15)).toBe(0);
  });
});

describe('upload history', () => {
  const store = (): KeyValueStore & { data: Map<string, string> } => {
    const data = new Map<string, string>();
    return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
  };
  const url = (n: number) => `http://localhost:3000/public/v2/uploads/${n}.png`;

  it('remembers uploads per account, newest first, once each, at most MAX_REMEMBERED', () => {
    const s = store();
    rememberUpload(s, 1, { url: url(1), name: 'a.png', at: 1 });
    rememberUpload(s, 1, { url: url(2), name: 'b.png', at: 2 });
    rememberUpload(s, 1, { url: url(1), name: 'a.png', at: 3 });
    rememberUpload(s, 2, { url: url(9), name: 'other.png', at: 4 });
    expect(listUploads(s, 1).map((e) => e.url)).toEqual([url(1), url(2)]);
    expect(listUploads(s, 2).map((e) => e.url)).toEqual([url(9)]);
    for (let i = 0; i < 80; i++) rememberUpload(s, 1, { url: url(100 + i), name: '', at: i });
    expect(listUploads(s, 1)).toHaveLength(MAX_REMEMBERED);
  });

  it('survives a damaged stored list', () => {
    const s = store();
    s.setItem('imprint.studio.uploads.1', '{not json');
    expect(listUploads(s, 1)).toEqual([]);
    s.setItem('imprint.studio.uploads.1', JSON.stringify([{ url: 5 }, { url: url(1), name: 'x', at: 1 }]));
    expect(listUploads(s, 1)).toHaveLength(1);
  });

  it('recognises upload URLs and labels them', () => {
    expect(isUploadUrl(url(1))).toBe(true);
    expect(isUploadUrl('lake.jpg')).toBe(false);
    expect(uploadLabel({ url: url(1), name: 'photo.png', at: 0 })).toBe('photo.png (1.png…)');
    expect(uploadLabel({ url: url(1), name: '', at: 0 })).toBe('1.png');
  });
});

describe('render progress text', () => {
  it('says frames, percent and time left in words', () => {
    expect(progressText({ fraction: 0, frames_done: 0, frames_total: 450, eta_seconds: null })).toBe('0 of 450 frames · loading files…');
    expect(progressText({ fraction: 0.4222, frames_done: 190, frames_total: 450, eta_seconds: 7.5 })).toBe('190 of 450 frames · 42 % · about 8 s left');
    expect(progressText({ fraction: 0.1, frames_done: 45, frames_total: 450, eta_seconds: null })).toBe('45 of 450 frames · 10 %');
    expect(progressText({ fraction: 0.01, frames_done: 90, frames_total: 9000, eta_seconds: 200 })).toBe('90 of 9000 frames · 1 % · about 4 min left');
    expect(progressText({ fraction: 1, frames_done: 450, frames_total: 450, eta_seconds: 0 })).toBe('450 of 450 frames · 100 % · storing the file…');
  });
});
