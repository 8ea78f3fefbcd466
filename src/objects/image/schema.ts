// Image objects in template format v1: a picture placed into its box; an override may replace the
// picture and how it is fitted.
import { z } from 'zod';
import { doc, ImageRef } from '../../format/fields.js';
import { common, placementOverrideFields } from '../common.js';
import { MediaConfig } from '../media.js';

export const ImageObject = z
  .strictObject({
    type: doc(z.literal('image'), 'Object type: a picture.', 'image'),
    ...common,
    path: doc(
      ImageRef,
      'The image: a path relative to the design folder, or "asset:<name>" resolved by the host. http(s) URLs are refused.',
      'photos/beach.jpg',
    ),
    config: MediaConfig.optional(),
  })
  .meta({ description: 'A picture placed into its box.' });

export const ImageOverride = z.strictObject({
  ...placementOverrideFields,
  path: ImageObject.shape.path.optional(),
  config: MediaConfig.optional(),
});

export type ImageObject = z.infer<typeof ImageObject>;
