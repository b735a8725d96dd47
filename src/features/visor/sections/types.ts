// The contract between the visor screen and a section type (issue 18): the screen draws the
// grid, each section's frame (title, settings, duplicate, delete) and saves; a section type
// is one module that draws its body and changes its own config. Adding a type is one module
// and one entry in registry.ts.
import type { ComponentType } from 'react';
import type { Section, SectionType } from '../../../protocol/workspace';

/** The section of one type, as the protocol stores it. */
export type SectionOf<T extends SectionType> = Extract<Section, { type: T }>;

/** The config of one section type. */
export type ConfigOf<T extends SectionType> = SectionOf<T>['config'];

/**
 * A change of a section's config: the next config from the current one. The screen applies it
 * to the latest config (with every change made since the last render), so two changes in quick
 * succession (two symbols added before the screen re-renders) both stay. Returning `current`
 * itself changes nothing.
 */
export type ConfigUpdate<T extends SectionType> = (current: ConfigOf<T>) => ConfigOf<T>;

export interface SectionViewProps<T extends SectionType> {
  section: SectionOf<T>;
  /** Edit mode, for the owner: the section may change its config. Public mode: read-only. */
  editable: boolean;
  /**
   * The signed-in user owns the visor (in edit mode always; in public mode the owner may be
   * looking too). A section that shows the owner's private data (positions) shows it only then.
   */
  owner: boolean;
  /** Changes this section's config (see ConfigUpdate); the screen saves it (autosave). */
  onConfigChange: (update: ConfigUpdate<T>) => void;
  /** The section's settings are open (after its settings button, or just added). */
  settingsOpen: boolean;
  onSettingsClose: () => void;
  /**
   * Why controls that need the server are off (offline, the visor could not be saved…), or
   * null when they work. A section shows it next to the controls it disables.
   */
  disabledReason: string | null;
}

export interface SectionModule<T extends SectionType> {
  type: T;
  /** The name in `Agregar sección` (`Cotizaciones`, `Fórmulas`). */
  label: string;
  /** Title of a new section of this type. */
  defaultTitle: string;
  /** Config of a new section of this type. */
  defaultConfig: () => ConfigOf<T>;
  /** Size of a new section in grid units (12 columns; a row is the grid's row height). */
  defaultSize: { w: number; h: number };
  /** The least size the section stays usable at. */
  minSize: { w: number; h: number };
  /** The section's body, inside the frame the screen draws. */
  View: ComponentType<SectionViewProps<T>>;
}
