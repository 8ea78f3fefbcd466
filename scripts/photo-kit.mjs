// Shared pieces of the procedural photo generators (scripts/make-photos.mjs, make-mockup-assets.mjs):
// seeded randomness and noise, colour helpers, terrain, water reflections, grain and vignette.
// ── deterministic randomness and noise ──────────────────────────────────────────────────────────

export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Smooth 2-D value noise in [0, 1] and fractal sums of it, all from one seed. */
export function makeNoise(seed) {
  const rng = mulberry32(seed);
  const perm = new Uint16Array(512);
  const p = [...Array(256).keys()];
  for (let i = 255; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [p[i], p[j]] = [p[j], p[i]];
  }
  for (let i = 0; i < 512; i++) perm[i] = p[i & 255];
  const values = new Float32Array(256).map(() => rng());
  const v = (x, y) => values[perm[(perm[x & 255] + y) & 511]];
  const noise = (x, y) => {
    const xi = Math.floor(x);
    const yi = Math.floor(y);
    const xf = x - xi;
    const yf = y - yi;
    const u = xf * xf * (3 - 2 * xf);
    const w = yf * yf * (3 - 2 * yf);
    const a = v(xi, yi);
    const b = v(xi + 1, yi);
    const c = v(xi, yi + 1);
    const d = v(xi + 1, yi + 1);
    return a + (b - a) * u + (c - a) * w + (a - b - c + d) * u * w;
  };
  const fbm = (x, y, octaves = 5, gain = 0.5) => {
    let sum = 0;
    let amp = 0.5;
    let norm = 0;
    for (let o = 0; o < octaves; o++) {
      sum += amp * noise(x, y);
      norm += amp;
      amp *= gain;
      x = x * 2.03 + 17.1;
      y = y * 2.01 + 9.7;
    }
    return sum / norm;
  };
  return { noise, fbm };
}

// ── small colour helpers ────────────────────────────────────────────────────────────────────────

export const clamp = (v, lo = 0, hi = 1) => (v < lo ? lo : v > hi ? hi : v);
export const smoothstep = (a, b, x) => {
  const t = clamp((x - a) / (b - a));
  return t * t * (3 - 2 * t);
};
export const mix = (a, b, t) => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
export const screen = (a, b, t) => [
  255 - ((255 - a[0]) * (255 - b[0] * t)) / 255,
  255 - ((255 - a[1]) * (255 - b[1] * t)) / 255,
  255 - ((255 - a[2]) * (255 - b[2] * t)) / 255,
];
export function gradient(stops, t) {
  if (t <= stops[0][0]) return stops[0][1];
  for (let i = 1; i < stops.length; i++) {
    const [t1, c1] = stops[i];
    if (t <= t1) {
      const [t0, c0] = stops[i - 1];
      return mix(c0, c1, (t - t0) / (t1 - t0));
    }
  }
  return stops[stops.length - 1][1];
}
export const rgba = (c, a = 1) => `rgba(${Math.round(c[0])},${Math.round(c[1])},${Math.round(c[2])},${a})`;

/** Straight RGBA working buffer over a canvas; `put` writes it back. */
export function pixels(ctx, w, h) {
  const img = ctx.getImageData(0, 0, w, h);
  return {
    d: img.data,
    get(x, y) {
      const i = (y * w + x) * 4;
      return [img.data[i], img.data[i + 1], img.data[i + 2]];
    },
    /** Bilinear sample, clamped to the image. */
    sample(x, y) {
      x = clamp(x, 0, w - 1.001);
      y = clamp(y, 0, h - 1.001);
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      const fx = x - x0;
      const fy = y - y0;
      const d = img.data;
      const i00 = (y0 * w + x0) * 4;
      const i10 = i00 + 4;
      const i01 = i00 + w * 4;
      const i11 = i01 + 4;
      const out = [0, 0, 0];
      for (let c = 0; c < 3; c++) {
        const top = d[i00 + c] + (d[i10 + c] - d[i00 + c]) * fx;
        const bot = d[i01 + c] + (d[i11 + c] - d[i01 + c]) * fx;
        out[c] = top + (bot - top) * fy;
      }
      return out;
    },
    set(x, y, c) {
      const i = (y * w + x) * 4;
      img.data[i] = c[0];
      img.data[i + 1] = c[1];
      img.data[i + 2] = c[2];
      img.data[i + 3] = 255;
    },
    put() {
      ctx.putImageData(img, 0, 0);
    },
  };
}

/**
 * A mountain ridge: the y of the skyline for every x, from a few shaped peaks plus fractal detail.
 * peaks: [centre x, height, half width, sharpness]. detail and fine are standard deviations in px.
 */
export function ridge(w, base, peaks, noise, { detail = 20, scale = 110, fine = 3 } = {}) {
  const r = new Float32Array(w + 4);
  const top = Math.max(1, ...peaks.map((p) => p[1]));
  for (let x = 0; x < w + 4; x++) {
    let h = 0;
    for (const [c, ph, hw, sharp] of peaks) {
      const t = Math.max(0, 1 - Math.abs(x - c) / hw);
      h = Math.max(h, ph * t ** sharp);
    }
    // Fractal crest, rougher and with sharper ridged notches the higher the ground.
    const n = (noise.fbm(x / scale, 3.3, 6, 0.58) - 0.47) / 0.12;
    const notch = 1 - Math.abs(noise.noise(x / (scale * 0.3), 1.1) * 2 - 1);
    const f = (noise.fbm(x / 12, 7.7, 3) - 0.47) / 0.13;
    const rough = 0.35 + 0.65 * (h / top);
    r[x] = base - h - n * detail * rough - notch * detail * 0.8 * rough - f * fine;
  }
  return r;
}

/** Slope of a ridge line averaged over ±radius px: > 0 where the ground falls to the right. */
export function smoothSlope(r, radius) {
  const out = new Float32Array(r.length);
  for (let x = 0; x < r.length; x++) {
    const a = Math.max(0, x - radius);
    const b = Math.min(r.length - 1, x + radius);
    out[x] = (r[b] - r[a]) / (b - a);
  }
  return out;
}

/**
 * Calm-water reflection of everything above `horizon`, with ripples that grow towards the viewer,
 * a darker, bluer tint and a Fresnel fade to `deep`. `streak` smears lights vertically (night scenes).
 */
export function reflectWater(
  px,
  w,
  h,
  horizon,
  noise,
  { tint = [0.8, 0.82, 0.9], deep = [20, 24, 44], fresnel = [0.12, 0.6], ripple = 1, streak = 0, extra } = {},
) {
  for (let y = horizon; y < h; y++) {
    const u = y - horizon;
    const k = u / (h - horizon);
    for (let x = 0; x < w; x++) {
      const n1 = noise.noise(x / (110 + u * 3.2), u / (1.6 + u * 0.09));
      const n2 = noise.noise(x / (40 + u * 1.2) + 311, u / (1.1 + u * 0.06) + 91);
      const dy = (n1 - 0.5) * (2.5 + u * 0.16) * ripple;
      // Night water breaks lights into horizontal dashes: the sideways shift changes quickly row to row.
      const dx = streak > 0 ? (noise.noise(x / 240 + 51, u / (0.6 + u * 0.01)) - 0.5) * (2 + u * 0.05) * ripple : (n2 - 0.5) * (2 + u * 0.06) * ripple;
      const sy = horizon - 1 - u * 0.985 + dy;
      let c;
      if (streak > 0) {
        const len = 2 + u * streak;
        c = [0, 0, 0];
        const samples = 7;
        for (let s = 0; s < samples; s++) {
          const o = (s / (samples - 1) - 0.5) * len;
          const v = px.sample(x + dx, sy + o);
          c[0] += v[0] / samples;
          c[1] += v[1] / samples;
          c[2] += v[2] / samples;
        }
      } else c = px.sample(x + dx, sy);
      c = [c[0] * tint[0], c[1] * tint[1], c[2] * tint[2]];
      c = mix(c, deep, fresnel[0] + (fresnel[1] - fresnel[0]) * k ** 1.2);
      if (extra) c = extra(c, x, y, u, k);
      px.set(x, y, c);
    }
  }
}

/** Film grain (luminance only, seeded) and a soft vignette, applied in place. */
export function finish(ctx, w, h, { seed, grain = 4, vignette = 0.35, warmth = 0 } = {}) {
  if (vignette > 0) {
    const g = ctx.createRadialGradient(w / 2, h / 2, Math.min(w, h) * 0.35, w / 2, h / 2, Math.hypot(w, h) * 0.6);
    g.addColorStop(0, 'rgba(0,0,0,0)');
    g.addColorStop(1, `rgba(0,0,0,${vignette})`);
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, w, h);
  }
  const rng = mulberry32(seed);
  const img = ctx.getImageData(0, 0, w, h);
  const d = img.data;
  for (let i = 0; i < d.length; i += 4) {
    const n = (rng() + rng() - 1) * grain;
    d[i] = d[i] + n + warmth;
    d[i + 1] = d[i + 1] + n;
    d[i + 2] = d[i + 2] + n - warmth;
  }
  ctx.putImageData(img, 0, 0);
}

/** A conifer silhouette standing on (x, y). */
export function pine(ctx, x, y, height, width, rng) {
  const tiers = 5 + Math.floor(height / 18);
  ctx.beginPath();
  ctx.moveTo(x, y - height);
  for (let i = 1; i <= tiers; i++) {
    const t = i / tiers;
    const ty = y - height + height * 0.92 * t;
    const tw = (width / 2) * (0.25 + 0.75 * t) * (0.85 + rng() * 0.3);
    ctx.lineTo(x + tw, ty);
    ctx.lineTo(x + tw * 0.35, ty - height * 0.03);
  }
  for (let i = tiers; i >= 1; i--) {
    const t = i / tiers;
    const ty = y - height + height * 0.92 * t;
    const tw = (width / 2) * (0.25 + 0.75 * t) * (0.85 + rng() * 0.3);
    ctx.lineTo(x - tw * 0.35, ty - height * 0.03);
    ctx.lineTo(x - tw, ty);
  }
  ctx.closePath();
  ctx.fill();
  ctx.fillRect(x - Math.max(1, width * 0.04), y - height * 0.1, Math.max(2, width * 0.08), height * 0.1 + 2);
}
