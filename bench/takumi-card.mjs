// The card-1080 example with its overrides drawn by Takumi (@takumi-rs/core, a Rust renderer behind
// napi): the peer that bench/cold.mjs and bench/render.mjs time beside Imprint and the hand-written raw
// script. Like bench/raw-card.mjs it is the same work, not a pixel-identical card: boxes and font
// sizes are those of Imprint's layout of this card, the text is laid out by Takumi from the same
// font files, the photo is cropped by Takumi (object-fit: cover) from the same jpeg.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Renderer } from '@takumi-rs/core';

const ROOT = join(import.meta.dirname, '..');
const font = (file) => readFileSync(join(ROOT, 'node_modules', '@expo-google-fonts', file));

/** An absolutely placed box. */
const box = (x, y, width, height, style = {}, children = []) => ({
  type: 'container',
  style: { position: 'absolute', left: x, top: y, width, height, display: 'flex', ...style },
  children,
});
const text = (value, style = {}) => ({ type: 'text', text: value, style });

/** The card's node tree: the same boxes, colours and texts as bench/raw-card.mjs. */
function card() {
  const inter = { fontFamily: 'Inter', fontWeight: 400 };
  const bold = { fontFamily: 'Inter', fontWeight: 700 };
  const lora = { fontFamily: 'Lora', fontWeight: 700, fontSize: 62, lineHeight: '69px', color: '#1b2030' };
  return box(0, 0, 1080, 1080, { backgroundColor: '#f6f1ea' }, [
    { type: 'image', src: 'city-night.jpg', width: 1080, height: 640, style: { position: 'absolute', left: 0, top: 0, objectFit: 'cover' } },
    box(64, 60, 268, 56, { backgroundColor: '#2f6fed', opacity: 0.92, borderRadius: 28, justifyContent: 'center', alignItems: 'center' }, [
      text('NORDIC TRAILS', { ...bold, fontSize: 20, letterSpacing: 3.2, color: '#ffffff' }),
    ]),
    box(836, 534, 196, 196, { backgroundColor: '#2f6fed', borderRadius: 98, border: '8px solid #f6f1ea' }),
    box(856, 586, 156, 60, { justifyContent: 'center', alignItems: 'center' }, [text('2 for 1', { ...bold, fontSize: 50, color: '#ffffff' })]),
    box(856, 648, 156, 28, { justifyContent: 'center', alignItems: 'center' }, [
      text('CITY NIGHTS', { ...bold, fontSize: 17, letterSpacing: 2.04, color: '#ffffff' }),
    ]),
    box(72, 690, 700, 30, {}, [text('OSLO · AFTER DARK', { ...bold, fontSize: 20, letterSpacing: 2.8, color: '#2f6fed' })]),
    box(72, 732, 740, 150, { flexDirection: 'column' }, [
      box(0, 0, 740, 69, {}, [text('City lights, ', { ...lora, whiteSpace: 'pre' }), text('after dark', { ...lora, color: '#2f6fed' }), text(':', lora)]),
      box(0, 69, 740, 69, {}, [text('a weekend in Oslo', lora)]),
    ]),
    box(72, 900, 760, 76, {}, [
      text('Harbour-front hotel, a rooftop dinner and a night walk with a local photographer.', {
        ...inter,
        fontSize: 25,
        lineHeight: '36px',
        color: '#5b6172',
      }),
    ]),
    box(72, 1000, 936, 2, { backgroundColor: '#e2d9cc' }),
    box(72, 1016, 936, 36, { alignItems: 'center' }, [
      text('nordictrails.example  ·  Two guests, one price until ', { ...inter, fontSize: 22, color: '#8a8f9c', whiteSpace: 'pre' }),
      text('15 July', { ...bold, fontSize: 22, color: '#1b2030' }),
    ]),
  ]);
}

/** Registers the three faces the card uses and reads the photo once (as Imprint keeps both), then
 *  returns a function that renders the card to `format` ('png' or 'jpeg', quality 90). */
export async function takumiCardRenderer() {
  const renderer = new Renderer();
  await renderer.registerFont({ name: 'Inter', data: font('inter/400Regular/Inter_400Regular.ttf'), weight: 400 });
  await renderer.registerFont({ name: 'Inter', data: font('inter/700Bold/Inter_700Bold.ttf'), weight: 700 });
  await renderer.registerFont({ name: 'Lora', data: font('lora/700Bold/Lora_700Bold.ttf'), weight: 700 });
  const images = [{ src: 'city-night.jpg', data: readFileSync(join(ROOT, 'examples', 'card-1080', 'city-night.jpg')) }];
  const node = card();
  return (format = 'png') => renderer.render(node, { width: 1080, height: 1080, format, ...(format === 'jpeg' ? { quality: 90 } : {}), images });
}
