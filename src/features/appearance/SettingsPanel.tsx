import {
  appearanceStore,
  BAR_STYLES,
  COLOR_MODES,
  COLOR_THEMES,
  colorThemeAtom,
  darkModeAtom,
  headerStyleAtom,
  layoutOptionsAtom,
  settingsPanelOpenAtom,
  sidebarStyleAtom,
  useAtom,
  type LayoutOptions,
} from './appearance';
import { Icon } from '../../ui/Icon';
import { useEffect } from 'react';

const MODE_LABELS = { light: 'Claro', dark: 'Oscuro', system: 'Sistema' } as const;
const STYLE_LABELS = { light: 'Claro', dark: 'Oscuro' } as const;

function Choice<T extends string>({
  name,
  value,
  options,
  labels,
  onChange,
}: {
  name: string;
  value: T;
  options: readonly T[];
  labels?: Partial<Record<T, string>>;
  onChange: (value: T) => void;
}) {
  return (
    <div className="settings-panel__choices" role="radiogroup" aria-label={name}>
      {options.map((option) => (
        <label key={option} className={`settings-panel__choice${option === value ? ' settings-panel__choice--on' : ''}`}>
          <input type="radio" name={name} value={option} checked={option === value} onChange={() => onChange(option)} />
          {labels?.[option] ?? option}
        </label>
      ))}
    </div>
  );
}

/** The side overlay: 'Apariencia' settings of the backend layout. */
export function SettingsPanel() {
  const [open, setOpen] = useAtom(settingsPanelOpenAtom, appearanceStore);
  const [mode, setMode] = useAtom(darkModeAtom, appearanceStore);
  const [colorTheme, setColorTheme] = useAtom(colorThemeAtom, appearanceStore);
  const [sidebarStyle, setSidebarStyle] = useAtom(sidebarStyleAtom, appearanceStore);
  const [headerStyle, setHeaderStyle] = useAtom(headerStyleAtom, appearanceStore);
  const [layout, setLayout] = useAtom(layoutOptionsAtom, appearanceStore);
  const toggle = (key: keyof LayoutOptions) => setLayout((current) => ({ ...current, [key]: !current[key] }));

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, setOpen]);

  if (!open) return null;
  return (
    <>
      <div className="settings-backdrop" onClick={() => setOpen(false)} aria-hidden="true" />
      <aside className="settings-panel" role="dialog" aria-modal="false" aria-label="Apariencia">
        <div className="settings-panel__head">
          <h2>Apariencia</h2>
          <button type="button" className="icon-button" onClick={() => setOpen(false)} aria-label="Cerrar apariencia">
            <Icon name="close" />
          </button>
        </div>
        <h3>Modo de color</h3>
        <Choice name="Modo de color" value={mode} options={COLOR_MODES} labels={MODE_LABELS} onChange={setMode} />
        <h3>Tema de color</h3>
        <div className="settings-panel__themes" role="radiogroup" aria-label="Tema de color">
          {COLOR_THEMES.map((theme) => (
            <label key={theme} className={`theme-swatch theme-swatch--${theme}${theme === colorTheme ? ' theme-swatch--on' : ''}`}>
              <input type="radio" name="Tema de color" value={theme} checked={theme === colorTheme} onChange={() => setColorTheme(theme)} />
              <span className="theme-swatch__dot" aria-hidden="true" />
              {theme}
            </label>
          ))}
        </div>
        {mode === 'light' && (
          <>
            <h3>Barra lateral</h3>
            <Choice name="Estilo de la barra lateral" value={sidebarStyle} options={BAR_STYLES} labels={STYLE_LABELS} onChange={setSidebarStyle} />
            <h3>Encabezado</h3>
            <Choice name="Estilo del encabezado" value={headerStyle} options={BAR_STYLES} labels={STYLE_LABELS} onChange={setHeaderStyle} />
          </>
        )}
        <h3>Diseño</h3>
        <label className="settings-panel__toggle">
          <input type="checkbox" checked={layout.sidebarMini} onChange={() => toggle('sidebarMini')} /> Barra lateral mini
        </label>
        <label className="settings-panel__toggle">
          <input type="checkbox" checked={layout.sidebarRight} onChange={() => toggle('sidebarRight')} /> Barra lateral a la derecha
        </label>
        <label className="settings-panel__toggle">
          <input type="checkbox" checked={layout.horizontalNav} onChange={() => toggle('horizontalNav')} /> Menú horizontal (escritorio)
        </label>
        <label className="settings-panel__toggle">
          <input type="checkbox" checked={layout.rtl} onChange={() => toggle('rtl')} /> De derecha a izquierda (RTL)
        </label>
        <label className="settings-panel__toggle">
          <input type="checkbox" checked={layout.pageLoader} onChange={() => toggle('pageLoader')} /> Indicador de carga de página
        </label>
        <h3>Contenido</h3>
        <Choice
          name="Ancho del contenido"
          value={layout.contentWidth}
          options={['full', 'boxed', 'narrow'] as const}
          labels={{ full: 'Completo', boxed: 'En caja', narrow: 'Angosto' }}
          onChange={(contentWidth) => setLayout((current) => ({ ...current, contentWidth }))}
        />
      </aside>
    </>
  );
}
