// The ffmpeg command line as data: exact argument arrays for representative settings, the validation
// that keeps bad settings from reaching ffmpeg, and the size helpers. No ffmpeg is run here.
import { describe, expect, it } from 'vitest';
import { concatArgs, evenSize, ffmpegArgs, sizeForType, type VideoEncodeSettings } from '../src/encode/ffmpeg-args.js';

const INPUT = ['-hide_banner', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1', '-f', 'rawvideo', '-pix_fmt', 'rgba'];
/** rgba → yuv420p with the BT.709 matrix in limited range, by the scaler named in the -vf graph. */
const BT709 = 'out_color_matrix=bt709:out_range=tv';
/** The stream's colour description, matching that conversion. */
const TAGS = ['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv'];

describe('ffmpegArgs', () => {
  it('defaults: veryfast, crf 20, no scaling, no audio, BT.709 conversion and tags', () => {
    expect(ffmpegArgs({ width: 1080, height: 1080, fps: 30, output: '/tmp/out.mp4' })).toEqual([
      ...INPUT,
      '-s',
      '1080x1080',
      '-framerate',
      '30',
      '-i',
      'pipe:0',
      '-vf',
      `scale=flags=bicubic+accurate_rnd:${BT709},format=yuv420p`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-pix_fmt',
      'yuv420p',
      ...TAGS,
      '-r',
      '30',
      '-movflags',
      '+faststart+write_colr',
      '-an',
      '-y',
      '/tmp/out.mp4',
    ]);
  });

  it('60 fps, preset and crf, scaled with lanczos by the same scaler that converts to BT.709', () => {
    expect(ffmpegArgs({ width: 1000, height: 333, fps: 60, output: 'o.mp4', outputWidth: 2162, outputHeight: 720, crf: 18, preset: 'ultrafast' })).toEqual([
      ...INPUT,
      '-s',
      '1000x333',
      '-framerate',
      '60',
      '-i',
      'pipe:0',
      '-vf',
      `scale=2162:720:flags=lanczos+accurate_rnd:${BT709},format=yuv420p`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '18',
      '-pix_fmt',
      'yuv420p',
      ...TAGS,
      '-r',
      '60',
      '-movflags',
      '+faststart+write_colr',
      '-an',
      '-y',
      'o.mp4',
    ]);
  });

  it('no resize when the output size equals the input size: the scaler only converts', () => {
    const args = ffmpegArgs({ width: 640, height: 480, fps: 30, output: 'o.mp4', outputWidth: 640, outputHeight: 480 });
    expect(args[args.indexOf('-vf') + 1]).toBe(`scale=flags=bicubic+accurate_rnd:${BT709},format=yuv420p`);
  });

  it('every encode converts with BT.709 and carries all four tags, whatever the other settings', () => {
    const variants: VideoEncodeSettings[] = [
      { width: 2, height: 2, fps: 30, output: 'o.mp4' },
      { width: 1080, height: 1080, fps: 60, output: 'o.mp4', outputWidth: 720, outputHeight: 720 },
      { width: 2, height: 2, fps: 30, output: 'o.mp4', repeatFrames: 60, audio: { path: 'a.mp3', start: 0, duration: 2, fadeOut: 0 } },
      { width: 2, height: 2, fps: 30, output: 'o.mp4', duration: 2, clipSounds: [{ path: 'a.mp4', trimStart: 0, trimEnd: 2, loop: false, from: 0, until: 2 }] },
    ];
    for (const v of variants) {
      const args = ffmpegArgs(v);
      const graph = args[args.indexOf('-vf') + 1]!.split(',');
      // The first filter converts (and resizes, if asked); format=yuv420p right after it keeps ffmpeg
      // from inserting a scaler of its own with the BT.601 default.
      expect(graph[0]).toMatch(new RegExp(`^scale=.*:${BT709}$`));
      expect(graph[1]).toBe('format=yuv420p');
      const tags = args.indexOf('-colorspace');
      expect(args.slice(tags, tags + TAGS.length)).toEqual(TAGS);
      expect(args[args.indexOf('-movflags') + 1]).toContain('write_colr');
    }
  });

  it('audio: trimmed input, explicit maps, aac 128k with a fade-out ending at the duration', () => {
    expect(
      ffmpegArgs({ width: 720, height: 1280, fps: 30, output: 'o.mp4', audio: { path: '/music/a.mp3', start: 12.5, duration: 15, fadeOut: 1.5 } }),
    ).toEqual([
      ...INPUT,
      '-s',
      '720x1280',
      '-framerate',
      '30',
      '-i',
      'pipe:0',
      '-ss',
      '12.5',
      '-t',
      '15',
      '-i',
      '/music/a.mp3',
      '-map',
      '0:v:0',
      '-map',
      '1:a:0',
      '-vf',
      `scale=flags=bicubic+accurate_rnd:${BT709},format=yuv420p`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-pix_fmt',
      'yuv420p',
      ...TAGS,
      '-r',
      '30',
      '-movflags',
      '+faststart+write_colr',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-af',
      'afade=t=out:st=13.5:d=1.5',
      '-shortest',
      '-y',
      'o.mp4',
    ]);
  });

  it('audio without fade-out has no -af; seconds never use exponent notation or float noise', () => {
    const args = ffmpegArgs({ width: 2, height: 2, fps: 30, output: 'o.mp4', audio: { path: 'a.wav', start: 1e-7, duration: 0.1 + 0.2, fadeOut: 0 } });
    expect(args).not.toContain('-af');
    expect(args.slice(args.indexOf('-ss'), args.indexOf('-ss') + 4)).toEqual(['-ss', '0', '-t', '0.3']);
    expect(args).toContain('-shortest');
    expect(args).not.toContain('-an');
  });

  it('the audio path and output path are single arguments, whatever they contain', () => {
    const args = ffmpegArgs({
      width: 2,
      height: 2,
      fps: 30,
      output: '/tmp/a b;c.mp4',
      audio: { path: '/x/my song $1.mp3', start: 0, duration: 1, fadeOut: 0.5 },
    });
    expect(args).toContain('/x/my song $1.mp3');
    expect(args.at(-1)).toBe('/tmp/a b;c.mp4');
    expect(args).toContain('afade=t=out:st=0.5:d=0.5');
  });

  it('clip sounds: one filter graph placing each clip on the timeline and summing it with the soundtrack', () => {
    const args = ffmpegArgs({
      width: 2,
      height: 2,
      fps: 30,
      output: 'o.mp4',
      duration: 6,
      audio: { path: 'music.mp3', start: 0, duration: 6, fadeOut: 1 },
      clipSounds: [
        { path: 'a.mp4', trimStart: 0.5, trimEnd: 2.5, loop: true, from: 1, until: 6 },
        { path: 'b.mov', trimStart: 0, trimEnd: 3, loop: false, from: 0, until: 2 },
      ],
    });
    const inputs = args.flatMap((a, i) => (a === '-i' ? [args[i + 1]] : []));
    expect(inputs).toEqual(['pipe:0', 'music.mp3', 'a.mp4', 'b.mov']);
    const graph = args[args.indexOf('-filter_complex') + 1]!.split(';');
    const norm = 'aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo';
    expect(graph).toEqual([
      `[1:a:0]${norm},afade=t=out:st=5:d=1,apad,atrim=end=6[a0]`,
      `[2:a:0]${norm},atrim=start=0.5:end=2.5,asetpts=PTS-STARTPTS,aloop=loop=-1:size=96000,atrim=end=5,adelay=1000|1000,apad,atrim=end=6[c0]`,
      `[3:a:0]${norm},atrim=start=0:end=3,asetpts=PTS-STARTPTS,atrim=end=2,adelay=0|0,apad,atrim=end=6[c1]`,
      '[a0][c0][c1]amix=inputs=3:duration=longest:dropout_transition=0,volume=3[aout]',
    ]);
    expect(args.slice(args.indexOf('-map'), args.indexOf('-map') + 4)).toEqual(['-map', '0:v:0', '-map', '[aout]']);
    expect(args).not.toContain('-af');
    expect(args).toContain('aac');
  });

  it('a clip sound alone passes straight through', () => {
    const args = ffmpegArgs({
      width: 2,
      height: 2,
      fps: 30,
      output: 'o.mp4',
      duration: 2,
      clipSounds: [{ path: 'a.mp4', trimStart: 0, trimEnd: 2, loop: false, from: 0, until: 2 }],
    });
    expect(args[args.indexOf('-filter_complex') + 1]).toMatch(/\[c0\]anull\[aout\]$/);
    expect(args).not.toContain('-an');
  });

  it('concat: segments copied without re-encoding (colour tags kept, colr box written), soundtrack added as in a normal encode', () => {
    expect(concatArgs({ list: '/t/list.txt', output: '/t/o.mp4' })).toEqual([
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostats',
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      '/t/list.txt',
      '-c:v',
      'copy',
      '-movflags',
      '+faststart+write_colr',
      '-an',
      '-y',
      '/t/o.mp4',
    ]);
    const args = concatArgs({ list: 'l.txt', output: 'o.mp4', audio: { path: 'a.mp3', start: 2, duration: 15, fadeOut: 1 } });
    expect(args.slice(args.indexOf('-ss'))).toEqual([
      '-ss',
      '2',
      '-t',
      '15',
      '-i',
      'a.mp3',
      '-map',
      '0:v:0',
      '-map',
      '1:a:0',
      '-c:v',
      'copy',
      '-movflags',
      '+faststart+write_colr',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-af',
      'afade=t=out:st=14:d=1',
      '-shortest',
      '-y',
      'o.mp4',
    ]);
    expect(() => concatArgs({ list: '', output: 'o.mp4' })).toThrow(/concat list must be a non-empty path/);
    expect(() => concatArgs({ list: 'l.txt', output: 'o.mp4', audio: { path: 'a.mp3', start: 0, duration: 1, fadeOut: 2 } })).toThrow(RangeError);
  });

  const base: VideoEncodeSettings = { width: 100, height: 100, fps: 30, output: 'o.mp4' };
  const bad: [string, Partial<VideoEncodeSettings> & Record<string, unknown>, RegExp][] = [
    ['fps 25', { fps: 25 as 30 }, /fps must be 30 or 60, got 25/],
    ['fps as a string', { fps: '30' as unknown as 30 }, /fps must be 30 or 60/],
    ['odd width', { width: 101 }, /must be even.*101x100.*evenSize/],
    ['odd height', { height: 99 }, /must be even.*100x99/],
    ['zero width', { width: 0 }, /width must be a positive integer, got 0/],
    ['negative height', { height: -2 }, /height must be a positive integer, got -2/],
    ['fractional width', { width: 100.5 }, /width must be a positive integer/],
    ['NaN height', { height: NaN }, /height must be a positive integer, got NaN/],
    ['odd output size', { outputWidth: 201, outputHeight: 200 }, /must be even.*201x200/],
    ['output width alone', { outputWidth: 200 }, /outputWidth and outputHeight must be given together/],
    ['zero output height', { outputWidth: 200, outputHeight: 0 }, /outputHeight must be a positive integer/],
    ['empty output', { output: '' }, /output path must be a non-empty string/],
    ['crf 52', { crf: 52 }, /crf must be an integer 0-51, got 52/],
    ['crf 20.5', { crf: 20.5 }, /crf must be an integer 0-51/],
    ['preset slow', { preset: 'slow' as 'fast' }, /preset must be one of ultrafast, .*medium, got slow/],
    ['audio without path', { audio: { path: '', start: 0, duration: 1, fadeOut: 0 } }, /audio path must be a non-empty string/],
    ['negative audio start', { audio: { path: 'a.mp3', start: -1, duration: 1, fadeOut: 0 } }, /audio start must be >= 0/],
    ['zero audio duration', { audio: { path: 'a.mp3', start: 0, duration: 0, fadeOut: 0 } }, /audio duration must be > 0/],
    ['infinite audio duration', { audio: { path: 'a.mp3', start: 0, duration: Infinity, fadeOut: 0 } }, /audio duration must be > 0/],
    [
      'fade longer than the audio',
      { audio: { path: 'a.mp3', start: 0, duration: 2, fadeOut: 3 } },
      /fadeOut must be between 0 and the duration \(2 s\), got 3/,
    ],
    ['negative fade', { audio: { path: 'a.mp3', start: 0, duration: 2, fadeOut: -1 } }, /fadeOut must be between 0/],
    [
      'clip sounds without duration',
      { clipSounds: [{ path: 'a.mp4', trimStart: 0, trimEnd: 1, loop: false, from: 0, until: 1 }] },
      /duration must be > 0 seconds with clip sounds/,
    ],
    [
      'clip sound trim backwards',
      { duration: 2, clipSounds: [{ path: 'a.mp4', trimStart: 2, trimEnd: 1, loop: false, from: 0, until: 1 }] },
      /clipSounds\[0\] must have 0 <= trimStart < trimEnd, got 2..1/,
    ],
    [
      'clip sound ending before it starts',
      { duration: 2, clipSounds: [{ path: 'a.mp4', trimStart: 0, trimEnd: 1, loop: false, from: 1, until: 1 }] },
      /clipSounds\[0\] must have 0 <= from < until/,
    ],
    [
      'clip sound without path',
      { duration: 2, clipSounds: [{ path: '', trimStart: 0, trimEnd: 1, loop: false, from: 0, until: 1 }] },
      /clipSounds\[0\] path must be a non-empty string/,
    ],
  ];
  it.each(bad)('rejects %s with a RangeError', (_name, patch, message) => {
    const call = () => ffmpegArgs({ ...base, ...patch });
    expect(call).toThrow(RangeError);
    expect(call).toThrow(message);
  });

  it('an odd input size is fine when the output size is even (the scaler fixes it)', () => {
    expect(ffmpegArgs({ width: 1000, height: 333, fps: 30, output: 'o.mp4', outputWidth: 1000, outputHeight: 332 })).toContain(
      `scale=1000:332:flags=lanczos+accurate_rnd:${BT709},format=yuv420p`,
    );
  });
});

describe('evenSize', () => {
  it('rounds each side down to even, at least 2', () => {
    expect(evenSize(1080, 1080)).toEqual({ width: 1080, height: 1080 });
    expect(evenSize(1001, 333)).toEqual({ width: 1000, height: 332 });
    expect(evenSize(1, 1)).toEqual({ width: 2, height: 2 });
    expect(evenSize(641.7, 480.2)).toEqual({ width: 640, height: 480 });
  });

  it('rejects non-positive and non-finite sizes', () => {
    expect(() => evenSize(0, 10)).toThrow(RangeError);
    expect(() => evenSize(10, -4)).toThrow(/height must be a positive number/);
    expect(() => evenSize(NaN, 10)).toThrow(RangeError);
  });
});

describe('sizeForType', () => {
  it.each([
    [1080, 1080, 'sd', 720, 720],
    [1080, 1080, 'hd', 1080, 1080],
    [1920, 1080, 'sd', 1280, 720],
    [1920, 1080, 'hd', 1920, 1080],
    [1080, 1920, 'hd', 1080, 1920],
    [1080, 1920, 'sd', 720, 1280],
    [1000, 333, 'sd', 2162, 720],
    [333, 1000, 'hd', 1080, 3244],
    [500, 500, 'hd', 1080, 1080],
  ] as const)('%ix%i %s → %ix%i', (w, h, type, ew, eh) => {
    const size = sizeForType(w, h, type);
    expect(size).toEqual({ width: ew, height: eh });
    expect(size.width % 2).toBe(0);
    expect(size.height % 2).toBe(0);
  });

  it('rejects a bad type or size', () => {
    expect(() => sizeForType(100, 100, '4k' as 'hd')).toThrow(/type must be 'sd' or 'hd'/);
    expect(() => sizeForType(0, 100, 'sd')).toThrow(RangeError);
  });
});

describe('ffmpegArgs repeatFrames', () => {
  it('converts the one input frame to yuv420p (BT.709) first, then loops it to the frame count', () => {
    const args = ffmpegArgs({ width: 1080, height: 1080, fps: 30, output: '/tmp/o.mp4', repeatFrames: 450 });
    expect(args[args.indexOf('-vf') + 1]).toBe(`scale=flags=bicubic+accurate_rnd:${BT709},format=yuv420p,loop=loop=449:size=1:start=0,setpts=N/30/TB`);
    const scaled = ffmpegArgs({ width: 1080, height: 1080, fps: 60, output: '/tmp/o.mp4', outputWidth: 720, outputHeight: 720, repeatFrames: 2 });
    expect(scaled[scaled.indexOf('-vf') + 1]).toBe(
      `scale=720:720:flags=lanczos+accurate_rnd:${BT709},format=yuv420p,loop=loop=1:size=1:start=0,setpts=N/60/TB`,
    );
    expect(() => ffmpegArgs({ width: 2, height: 2, fps: 30, output: 'o.mp4', repeatFrames: 0 })).toThrow(RangeError);
  });
});
