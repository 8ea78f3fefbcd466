// Frames out of an mp4 the tests rendered, as ffmpeg (the installer's binary) decodes them.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';

/** Writes `bytes` to `file` and returns the frame shown at `time` seconds, as png bytes. */
export function frameAt(bytes: Buffer, file: string, time: number): Buffer {
  writeFileSync(file, bytes);
  return execFileSync(ffmpegInstaller.path, ['-v', 'error', '-ss', String(time), '-i', file, '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', '-']);
}
