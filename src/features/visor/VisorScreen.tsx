// An open visor: its header and its grid of sections, with the sections' autosave in edit mode.
import { useState } from 'react';
import { isOwnVisor, MAX_SECTIONS, type Section } from '../../protocol/workspace';
import type { VisorRecord } from '../../shared/db';
import { useConnection } from '../../data/offline';
import { Menu } from '../../ui/Menu';
import { MarketStatesLine } from './MarketStatesLine';
import { addableSections } from './sections/registry';
import { bottomRow, GRID_COLUMNS, newSectionId } from './sectionLayout';
import { useVisorSections } from './useVisorSections';
import { VisorGrid } from './VisorGrid';
import { VisorHeader } from './VisorHeader';

export interface VisorScreenProps {
  record: VisorRecord;
  owner: boolean;
  editMode: boolean;
  disabledReason: string | null;
  /** Why controls that need the server are off (offline), or null; edits stay on (the worker's outbox keeps them). */
  serverReason?: string | null;
  busy: boolean;
  onTogglePublic: (value: boolean) => void;
  onClone: () => void;
  onToggleFav: () => void;
}

export function VisorScreen({ record, owner, editMode, disabledReason, serverReason = null, busy, ...actions }: VisorScreenProps) {
  const { sections, change, saveState } = useVisorSections(record.visor_id, record.userId, record, disabledReason);
  const connection = useConnection();
  const [settingsOpenId, setSettingsOpenId] = useState<string | null>(null);
  const shown = sections ?? record.secciones;

  const add = (type: Section['type']) => {
    const module = addableSections().find((item) => item.type === type);
    if (!module) return;
    const id = newSectionId();
    change((all) => [
      ...all,
      {
        id,
        type,
        title: module.defaultTitle,
        layout: { x: 0, y: bottomRow(all), w: Math.min(module.defaultSize.w, GRID_COLUMNS), h: module.defaultSize.h },
        config: module.defaultConfig(),
      } as Section,
    ]);
    setSettingsOpenId(id);
  };

  const duplicate = (section: Section) =>
    change((all) => [
      ...all,
      { ...section, id: newSectionId(), title: `${section.title} (copia)`.slice(0, 200), layout: { ...section.layout, x: 0, y: bottomRow(all) } },
    ]);

  const full = shown.length >= MAX_SECTIONS;
  const addMenu =
    editMode && disabledReason == null && !full ? (
      <Menu
        label="Agregar sección"
        text="Agregar sección"
        icon="plus"
        items={addableSections().map((module) => ({ label: module.label, onSelect: () => add(module.type) }))}
      />
    ) : editMode ? (
      <button type="button" className="button" disabled title={disabledReason ?? `Un visor no puede superar ${MAX_SECTIONS} secciones`}>
        Agregar sección
      </button>
    ) : undefined;

  return (
    <section className={`page visor-page visor-page--${editMode ? 'edit' : 'public'}`}>
      <VisorHeader
        visorId={record.visor_id}
        title={record.title}
        emoji={record.emoji}
        color={record.color}
        owner={owner}
        fav={isOwnVisor(record) && record.fav}
        isPublic={record.public}
        saveState={editMode ? saveState : null}
        outbox={connection}
        disabledReason={disabledReason}
        serverReason={serverReason}
        busy={busy}
        onToggleFav={actions.onToggleFav}
        onTogglePublic={actions.onTogglePublic}
        onClone={actions.onClone}
        addMenu={addMenu}
      />
      <MarketStatesLine />
      {shown.length === 0 ? (
        <div className="card visor-empty">
          <p className="muted">{editMode ? 'Este visor no tiene secciones. Agregue una con «Agregar sección».' : 'Este visor no tiene secciones.'}</p>
        </div>
      ) : (
        <VisorGrid
          sections={shown}
          editable={editMode}
          owner={owner}
          disabledReason={disabledReason}
          settingsOpenId={settingsOpenId}
          onSettingsOpen={setSettingsOpenId}
          onSectionsChange={change}
          onDuplicate={duplicate}
        />
      )}
    </section>
  );
}
