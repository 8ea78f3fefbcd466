// An image reference (`path`, `background.path`, a mockup layer's `image_url`, a slide's background):
// the current value as text, a file input "Upload image" that sends the file to POST /public/v2/upload
// and uses the URL it returns, and a select "Earlier uploads" of the URLs this tab got before.
import { useId, useState } from 'preact/hooks';
import { useStudio } from '../context.js';
import { describeError, isApiError, networkError } from '../lib/api-errors.js';
import { uploadLabel } from '../lib/upload-history.js';

interface Props {
  label: string;
  /** The label's tooltip (the field's JSON key). */
  title?: string | undefined;
  fieldId: string;
  value: string | undefined;
  overridden: boolean;
  error?: string | undefined;
  /** undefined: back to the template's image. */
  onChange: (url: string | undefined) => void;
}

export function ImageField({ label, title, fieldId, value, overridden, error, onChange }: Props) {
  const { api, uploads, addUpload } = useStudio();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const upload = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const url = await api.upload(file);
      addUpload({ url, name: file.name, at: Date.now() });
      onChange(url);
    } catch (e) {
      setProblem(describeError(isApiError(e) ? e : networkError(e)));
    } finally {
      setBusy(false);
      input.value = '';
    }
  };

  const message = error ?? problem;
  return (
    <div class={`field image${overridden ? ' overridden' : ''}`}>
      <label for={id} title={title}>
        {label}
      </label>
      <input
        id={id}
        type="text"
        data-field={fieldId}
        value={value ?? ''}
        placeholder="the template's image"
        aria-invalid={message ? 'true' : undefined}
        onChange={(e) => onChange(e.currentTarget.value.trim() || undefined)}
      />
      <div class="image-tools">
        <label class="file-button">
          <span>{busy ? 'Uploading…' : 'Upload image'}</span>
          <input
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
            aria-label="Upload image"
            disabled={busy}
            onChange={(e) => void upload(e.currentTarget)}
          />
        </label>
        <select
          aria-label="Earlier uploads"
          value=""
          onChange={(e) => e.currentTarget.value && onChange(e.currentTarget.value)}
          disabled={uploads.length === 0}
        >
          <option value="">{uploads.length ? 'Earlier uploads…' : 'No earlier uploads'}</option>
          {uploads.map((u) => (
            <option key={u.url} value={u.url}>
              {uploadLabel(u)}
            </option>
          ))}
        </select>
      </div>
      {message ? (
        <p class="field-error" role="alert">
          {message}
        </p>
      ) : null}
    </div>
  );
}
