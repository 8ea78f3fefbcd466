// The soundtrack of an mp4, loaded with the scene's other assets: its bytes from the asset resolver,
// written where ffmpeg can read them, and checked by decoding a moment of it, so a file that is not
// sound is the caller's error, not ffmpeg's.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { AssetNotFoundError, type AssetResolver } from './resolver.js';
import type { SceneImageRef } from '../scene/scene.js';
import { ImprintError, validationError } from '../errors.js';
import { loadExeca } from '../lazy-require.js';

export interface AudioFile {
  path: string;
  remove(): Promise<void>;
}

export async function loadAudio(ref: SceneImageRef, resolver: AssetResolver): Promise<AudioFile> {
  let bytes: Uint8Array;
  try {
    bytes = await resolver(ref);
  } catch (e) {
    if (e instanceof ImprintError) throw e;
    if (e instanceof AssetNotFoundError) throw validationError(ref.at, e.message);
    throw new ImprintError('render_failed', ref.at, `could not read the audio file: ${(e as Error).message}`, { cause: e });
  }
  const dir = await mkdtemp(join(tmpdir(), 'imprint-audio-'));
  const path = join(dir, 'audio');
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await writeFile(path, bytes);
    // execa is loaded here, as for clips (clips.ts): a render without sound never loads it.
    const { execa } = await loadExeca();
    const probe = await execa(ffmpegInstaller.path, ['-v', 'error', '-t', '0.5', '-i', path, '-vn', '-f', 'null', '-'], { reject: false, timeout: 20_000 });
    if (probe.exitCode !== 0 || /Output file #0 does not contain any stream|does not contain any stream/.test(probe.stderr)) {
      const reason = probe.stderr.trim().split('\n').pop() ?? 'not a sound file';
      throw validationError(ref.at, `the audio file cannot be decoded (${reason}): use an mp3, m4a, aac, wav, ogg or flac file`);
    }
    return { path, remove };
  } catch (e) {
    await remove();
    throw e;
  }
}
