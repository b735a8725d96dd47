// The visor's two section types (issue 18) on the /test page, with `?secciones` in the address,
// before the visor screen exists: each drawn as the screen will draw it, editable, its config
// kept in this tab's state (not saved), with its settings button. `?secciones=A,B,C` starts the
// quote board with those symbols (a board of hundreds of rows, for a benchmark). Without the
// parameter the /test page is as it was.
import { useState, type ReactNode } from 'react';
import type { Section } from '../../protocol/workspace';
import { formulaSection } from '../visor/sections/formula';
import { quotesSection } from '../visor/sections/quotes';
import type { ConfigOf, ConfigUpdate, SectionOf } from '../visor/sections/types';

export const SECTIONS_PARAM = 'secciones';

function useSection<T extends Section['type']>(type: T, initial: ConfigOf<T>, title: string) {
  const [section, setSection] = useState(() => ({ id: type, type, title, layout: { x: 0, y: 0, w: 12, h: 8 }, config: initial }) as SectionOf<T>);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [editable, setEditable] = useState(true);
  return {
    section,
    settingsOpen,
    editable,
    setEditable,
    toggleSettings: () => setSettingsOpen((open) => !open),
    props: {
      section,
      editable,
      owner: true,
      settingsOpen,
      onSettingsClose: () => setSettingsOpen(false),
      onConfigChange: (update: ConfigUpdate<T>) => setSection((current) => ({ ...current, config: update(current.config as ConfigOf<T>) })),
    },
  };
}

function Frame({
  title,
  children,
  state,
}: {
  title: string;
  children: ReactNode;
  state: { editable: boolean; setEditable(on: boolean): void; toggleSettings(): void };
}) {
  return (
    <section className="card sections-preview__frame" aria-label={title}>
      <header className="sections-preview__head">
        <h2>{title}</h2>
        <label>
          <input type="checkbox" checked={state.editable} onChange={(event) => state.setEditable(event.target.checked)} /> Editar
        </label>
        {state.editable && (
          <button type="button" className="button" onClick={state.toggleSettings}>
            Configuración
          </button>
        )}
      </header>
      <div className="sections-preview__body">{children}</div>
    </section>
  );
}

export function SectionsPreview({ symbols }: { symbols: readonly string[] }) {
  const quotes = useSection(
    'quotes',
    { ...quotesSection.defaultConfig(), rows: symbols.map((symbol) => ({ kind: 'symbol' as const, symbol })) },
    quotesSection.defaultTitle,
  );
  const formulas = useSection('formula', formulaSection.defaultConfig(), formulaSection.defaultTitle);
  const [offline, setOffline] = useState(false);
  const disabledReason = offline ? 'Sin conexión: los cambios no se pueden guardar' : null;
  const { View: QuotesView } = quotesSection;
  const { View: FormulaView } = formulaSection;
  return (
    <div className="sections-preview">
      <label>
        <input type="checkbox" checked={offline} onChange={(event) => setOffline(event.target.checked)} /> Simular controles sin servidor
      </label>
      <Frame title={quotes.section.title} state={quotes}>
        <QuotesView {...quotes.props} disabledReason={disabledReason} />
      </Frame>
      <Frame title={formulas.section.title} state={formulas}>
        <FormulaView {...formulas.props} disabledReason={disabledReason} />
      </Frame>
    </div>
  );
}
