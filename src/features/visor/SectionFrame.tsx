// One section of a visor as the grid draws it (issue 18): a header with its title (edited in
// place in edit mode), settings, duplicate and delete (the spec's confirm dialog), and the
// body its type's module draws. In edit mode the header is the drag handle; its input and
// buttons are not (VisorGrid's dragConfig.cancel).
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Section } from '../../protocol/workspace';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Icon } from '../../ui/Icon';
import { moduleOf } from './sections/registry';
import type { ConfigUpdate, SectionModule, SectionViewProps } from './sections/types';
import { updateConfig } from './sectionLayout';

export interface SectionFrameProps {
  section: Section;
  editable: boolean;
  /** The signed-in user owns the visor (SectionViewProps.owner). */
  owner: boolean;
  disabledReason: string | null;
  settingsOpen: boolean;
  onSettingsOpen: () => void;
  onSettingsClose: () => void;
  /** Changes this section: `update` gets the latest section (not this render's) and returns the next. */
  onChange: (update: (section: Section) => Section) => void;
  onDuplicate: () => void;
  onDelete: () => void;
}

export const UNAVAILABLE_SECTION = 'Este tipo de sección todavía no está disponible.';

export { LOADING_SECTION } from './sections/lazyView';

function SectionTitle({ title, editable, onRename }: { title: string; editable: boolean; onRename: (title: string) => void }) {
  const [editing, setEditing] = useState<string | null>(null);
  if (!editable) return <h2 className="section-frame__title">{title}</h2>;
  const commit = () => {
    if (editing != null && editing.trim() !== title) onRename(editing.trim());
    setEditing(null);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') event.currentTarget.blur();
    else if (event.key === 'Escape') {
      setEditing(null);
      event.currentTarget.blur();
    }
  };
  // Still the section's heading (a formula card's name is an h3 below it), with the field in it.
  return (
    <h2 className="section-frame__heading">
      <input
        className="section-frame__title-input"
        aria-label="Título de la sección"
        value={editing ?? title}
        maxLength={200}
        onFocus={() => setEditing(title)}
        onChange={(event) => setEditing(event.target.value)}
        onBlur={commit}
        onKeyDown={onKeyDown}
      />
    </h2>
  );
}

/** The module's body for the section, typed by its type (the registry keeps them in step). */
function SectionBody({
  section,
  ...rest
}: Omit<SectionViewProps<Section['type']>, 'section' | 'onConfigChange'> & {
  section: Section;
  onConfigChange: (update: (config: Section['config']) => Section['config']) => void;
}) {
  const module = moduleOf(section.type) as SectionModule<Section['type']> | undefined;
  if (!module) return <p className="muted section-frame__unavailable">{UNAVAILABLE_SECTION}</p>;
  const View = module.View;
  return <View section={section as never} {...rest} onConfigChange={(update: ConfigUpdate<Section['type']>) => rest.onConfigChange(update)} />;
}

/** Scrolls the element into view, as little as needed (at once with prefers-reduced-motion). */
function reveal(element: HTMLElement): void {
  const reduced = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  element.scrollIntoView({ block: 'nearest', behavior: reduced ? 'auto' : 'smooth' });
}

export function SectionFrame(props: SectionFrameProps) {
  const { section, editable, disabledReason } = props;
  const [confirming, setConfirming] = useState(false);
  const locked = !editable || disabledReason != null;
  const article = useRef<HTMLElement>(null);
  // Settings opened: the section comes into view. A section just added lands at the bottom of
  // the grid with its settings open, often below the window: without this, Agregar sección
  // seemed to do nothing.
  useEffect(() => {
    if (props.settingsOpen && article.current) reveal(article.current);
  }, [props.settingsOpen]);
  return (
    <article
      ref={article}
      className="section-frame"
      data-section-id={section.id}
      // The saved place in grid units (x, y, w, h): what a reload must find.
      data-layout={`${section.layout.x},${section.layout.y},${section.layout.w},${section.layout.h}`}
      aria-label={section.title || 'Sección'}
    >
      <header className={`section-frame__head${locked ? '' : ' section-frame__drag'}`}>
        {!locked && (
          <span className="section-frame__grip" aria-hidden="true" title="Arrastrar para mover">
            <Icon name="grip" />
          </span>
        )}
        <SectionTitle
          title={section.title}
          editable={!locked}
          onRename={(title) => props.onChange((current) => (current.title === title ? current : { ...current, title }))}
        />
        {editable && (
          <div className="section-frame__actions">
            <button type="button" className="icon-button" aria-label="Configurar sección" title="Configurar" onClick={props.onSettingsOpen}>
              <Icon name="settings" />
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label="Duplicar sección"
              title={disabledReason ?? 'Duplicar'}
              disabled={locked}
              onClick={props.onDuplicate}
            >
              <Icon name="copy" />
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label="Eliminar sección"
              title={disabledReason ?? 'Eliminar'}
              disabled={locked}
              onClick={() => setConfirming(true)}
            >
              <Icon name="trash" />
            </button>
          </div>
        )}
      </header>
      <div className="section-frame__body">
        <SectionBody
          section={section}
          editable={editable}
          owner={props.owner}
          disabledReason={disabledReason}
          settingsOpen={props.settingsOpen}
          onSettingsClose={props.onSettingsClose}
          onConfigChange={(update) => props.onChange(updateConfig(update))}
        />
      </div>
      <ConfirmDialog
        open={confirming}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          props.onDelete();
        }}
      />
    </article>
  );
}
