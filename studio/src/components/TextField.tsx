// A text object's `text`: a textarea labelled "text" with a toolbar that puts substyle tags around
// the selection (Bold, Underline, a colour, a link); the tag logic is lib/substyle.ts. The textarea
// keeps its own draft while focused so typing is never interrupted by the preview's round trips.
import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { applySubstyle, BOLD, checkLink, colourAttr, linkAttr, UNDERLINE, type Attr } from '../lib/substyle.js';

interface Props {
  label: string;
  /** The label's tooltip (the field's JSON key). */
  title?: string | undefined;
  value: string;
  overridden: boolean;
  error?: string | undefined;
  maxLength?: number | undefined;
  onChange: (text: string) => void;
}

export function TextField({ label, title, value, overridden, error, maxLength, onChange }: Props) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const [colour, setColour] = useState('#e4572e');
  const [link, setLink] = useState('https://');
  const [note, setNote] = useState<string | null>(null);
  const restore = useRef<[number, number] | null>(null);

  // After a toolbar edit, select the same characters again (now inside their tag).
  useLayoutEffect(() => {
    const r = restore.current;
    if (r && area.current) {
      area.current.focus();
      area.current.setSelectionRange(r[0], r[1]);
      restore.current = null;
    }
  });

  const apply = (attr: Attr) => {
    const el = area.current;
    if (!el) return;
    const edit = applySubstyle(el.value, el.selectionStart, el.selectionEnd, attr);
    setNote(edit.note ?? null);
    if (edit.note) return;
    restore.current = [edit.start, edit.end];
    onChange(edit.text);
  };

  const applyLink = () => {
    const problem = checkLink(link);
    if (problem) return setNote(problem);
    apply(linkAttr(link.trim()));
  };

  return (
    <div class={`field markup${overridden ? ' overridden' : ''}`}>
      <label for={id} title={title}>
        {label}
      </label>
      <div class="toolbar" role="toolbar" aria-label="Text style" aria-controls={id}>
        <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => apply(BOLD)} title="Wrap the selection in bold (weight 700)">
          Bold
        </button>
        <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => apply(UNDERLINE)} title="Underline the selection">
          Underline
        </button>
        <span class="tool-group">
          <input type="color" aria-label="Text colour" value={colour} onInput={(e) => setColour(e.currentTarget.value)} />
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => apply(colourAttr(colour))} title="Colour the selection">
            Colour
          </button>
        </span>
        <span class="tool-group">
          <input type="url" aria-label="Link URL" value={link} onInput={(e) => setLink(e.currentTarget.value)} size={14} />
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={applyLink} title="Make the selection a link">
            Link
          </button>
        </span>
      </div>
      <textarea
        id={id}
        ref={area}
        data-field="text"
        rows={4}
        value={value}
        maxLength={maxLength}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error || note ? `${id}-msg` : undefined}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
      {error || note ? (
        <p id={`${id}-msg`} class={error ? 'field-error' : 'hint'}>
          {error ?? note}
        </p>
      ) : null}
    </div>
  );
}
