// The timeline of an animated or video design: a "Time" scrubber (the preview shows the still at that
// time), Play/Pause (a low-fps preview: the next frame is asked for when the last one is painted),
// and for a video design its slides, each with its time span and a background that an upload
// replaces in the render and the preview alike (interface B's slide override `path`, which the
// preview endpoint takes in its list form too).
import { useId, useState } from 'preact/hooks';
import { useStudio } from '../context.js';
import { describeError, isApiError, networkError } from '../lib/api-errors.js';
import type { SlideOverride } from '../lib/overrides.js';
import type { SlideInfo } from '../lib/designs.js';
import { formatSeconds, slideIndexAt, slideSpans, type SlideSpan } from '../lib/timeline.js';
import { uploadLabel } from '../lib/upload-history.js';

interface Props {
  duration: number;
  time: number;
  playing: boolean;
  fps: number;
  onTime: (t: number) => void;
  onPlay: (playing: boolean) => void;
  slides: SlideInfo[];
  slideOverrides: Record<string, SlideOverride>;
  onSlide: (name: string, value: SlideOverride | undefined) => void;
}

export function Timeline({ duration, time, playing, fps, onTime, onPlay, slides, slideOverrides, onSlide }: Props) {
  const current = slideIndexAt(slides, time);
  return (
    <section class="timeline" aria-label="Playback">
      <div class="scrub">
        <button type="button" class="play" onClick={() => onPlay(!playing)} aria-pressed={playing} title={`Preview at ${fps} frames per second`}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <input type="range" aria-label="Time" min={0} max={duration} step={0.05} value={time} onInput={(e) => onTime(Number(e.currentTarget.value))} />
        <output class="time">
          {formatSeconds(time)} / {formatSeconds(duration)}
        </output>
      </div>
      {slides.length ? (
        <ol class="slides">
          {slideSpans(slides).map((s, i) => (
            <Slide
              key={`${i}-${s.name}`}
              index={i}
              slide={s}
              current={i === current}
              override={s.name === null ? undefined : slideOverrides[s.name]}
              onSeek={() => onTime(s.start)}
              onSlide={onSlide}
            />
          ))}
        </ol>
      ) : null}
    </section>
  );
}

function Slide({
  index,
  slide,
  current,
  override,
  onSeek,
  onSlide,
}: {
  index: number;
  slide: SlideSpan<SlideInfo>;
  current: boolean;
  override: SlideOverride | undefined;
  onSeek: () => void;
  onSlide: Props['onSlide'];
}) {
  const { api, uploads, addUpload } = useStudio();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const name = slide.name;
  const upload = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file || name === null) return;
    setBusy(true);
    setProblem(null);
    try {
      const url = await api.upload(file);
      addUpload({ url, name: file.name, at: Date.now() });
      onSlide(name, { path: url });
    } catch (e) {
      setProblem(describeError(isApiError(e) ? e : networkError(e)));
    } finally {
      setBusy(false);
      input.value = '';
    }
  };
  return (
    <li data-testid="slide" data-slide={name ?? ''} class={current ? 'current' : ''} aria-current={current ? 'step' : undefined}>
      <button type="button" class="link" onClick={onSeek} title="Show this slide">
        <strong>{name ?? `Slide ${index + 1}`}</strong>{' '}
        <span class="muted">
          {formatSeconds(slide.start)}–{formatSeconds(slide.end)}
        </span>
      </button>
      {name === null ? (
        <span class="small muted">no name: its background cannot be replaced</span>
      ) : (
        <>
          <span class="small">{override ? `background: ${uploadLabel({ url: override.path, name: '', at: 0 })}` : 'template background'}</span>
          <label class="file-button small">
            <span>{busy ? 'Uploading…' : 'Replace background'}</span>
            <input
              id={id}
              type="file"
              accept="image/png,image/jpeg,image/webp"
              aria-label={`Background of slide ${name}`}
              disabled={busy}
              onChange={(e) => void upload(e.currentTarget)}
            />
          </label>
          <select
            aria-label={`Earlier uploads for slide ${name}`}
            value=""
            disabled={!uploads.length}
            onChange={(e) => e.currentTarget.value && onSlide(name, { path: e.currentTarget.value })}
          >
            <option value="">{uploads.length ? 'Earlier uploads…' : 'No earlier uploads'}</option>
            {uploads.map((u) => (
              <option key={u.url} value={u.url}>
                {uploadLabel(u)}
              </option>
            ))}
          </select>
          {override ? (
            <button type="button" class="ghost small" onClick={() => onSlide(name, undefined)}>
              Use the template's background
            </button>
          ) : null}
        </>
      )}
      {problem ? <p class="field-error">{problem}</p> : null}
    </li>
  );
}
