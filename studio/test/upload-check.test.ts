// The Studio's check of an image before uploading it (studio/src/lib/upload-check.ts): the service's
// limit, a file that is not an image, and one that is too large, each with a message that says what to do.
import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES as SERVICE_LIMIT } from '../../src/service/uploads.js';
import { imageFileProblem, MAX_UPLOAD_BYTES } from '../src/lib/upload-check.js';

describe('image files before upload', () => {
  it('keeps the service’s upload limit', () => {
    expect(MAX_UPLOAD_BYTES).toBe(SERVICE_LIMIT);
  });

  it('lets images through, by type or, without one, by name', () => {
    expect(imageFileProblem({ name: 'beach.jpg', size: 1000, type: 'image/jpeg' })).toBeNull();
    expect(imageFileProblem({ name: 'logo.svg', size: 1000, type: '' })).toBeNull();
  });

  it('refuses a file that is not an image, naming it', () => {
    expect(imageFileProblem({ name: 'notes.txt', size: 10, type: 'text/plain' })).toBe(
      '“notes.txt” is not an image: choose a png, jpg, webp, avif, gif or svg file.',
    );
  });

  it('refuses a 60 MB image with the limit and what to do', () => {
    expect(imageFileProblem({ name: 'huge.png', size: 60 * 1048576, type: 'image/png' })).toBe(
      '“huge.png” is 60 MB: images of up to 10 MB can be uploaded; make it smaller.',
    );
  });
});
