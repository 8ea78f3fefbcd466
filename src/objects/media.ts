// How pictures fill their boxes, shared by image and video objects and mockup image layers: the
// strategy names a template or an override may use, and the three fits layout knows.
import { z } from 'zod';
import { doc } from '../format/fields.js';
import type { MediaFit } from '../scene/scene.js';

export type MediaStrategyName = z.infer<typeof MediaStrategy>;

export const MediaStrategy = doc(
  z.enum(['cover', 'contain', 'fill', 'stretch', 'fit', 'crop']),
  'How an image fills its box. cover (default) crops to fill, contain fits whole with empty bands, fill stretches. Aliases: crop = cover, fit = contain, stretch = fill.',
  'contain',
);

export const MediaConfig = z
  .strictObject({ media_replacement_strategy: MediaStrategy.optional() })
  .meta({ description: 'How a replaced image is fitted.', examples: [{ media_replacement_strategy: 'cover' }] });

/** Strategy name (aliases included) → fit. */
export const MEDIA_ALIASES: Record<MediaStrategyName, MediaFit> = {
  cover: 'cover',
  crop: 'cover',
  contain: 'contain',
  fit: 'contain',
  fill: 'fill',
  stretch: 'fill',
};
