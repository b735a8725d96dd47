// The visor's grid (issue 18): react-grid-layout 2, 12 columns, sections packed upwards
// (vertical compaction). In edit mode a section moves by its header and resizes by its
// corner; in public mode (and while saving is off) the grid is static. Below 768 px the
// sections stack in one column in reading order. The saved layout is each section's `layout`.
import ReactGridLayout, { useContainerWidth, verticalCompactor, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import type { Section } from '../../protocol/workspace';
import { moduleOf } from './sections/registry';
import { SectionFrame } from './SectionFrame';
import { applyLayout, GRID_COLUMNS, NARROW_WIDTH, readingOrder, updateSection } from './sectionLayout';

export interface VisorGridProps {
  sections: Section[];
  /** Edit mode for the owner: move, resize, configure. */
  editable: boolean;
  /** The signed-in user owns the visor (also in public mode). */
  owner: boolean;
  disabledReason: string | null;
  settingsOpenId: string | null;
  onSettingsOpen: (sectionId: string | null) => void;
  onSectionsChange: (update: (sections: Section[]) => Section[]) => void;
  onDuplicate: (section: Section) => void;
}

const ROW_HEIGHT = 40;
const MARGIN: [number, number] = [16, 16];

export function VisorGrid(props: VisorGridProps) {
  const { sections, editable, disabledReason } = props;
  // Measured before the first layout: no frame at the hook's default width sliding into place.
  const { width, containerRef, mounted } = useContainerWidth({ measureBeforeMount: true });
  const movable = editable && disabledReason == null;

  const frame = (section: Section) => (
    <SectionFrame
      section={section}
      editable={editable}
      owner={props.owner}
      disabledReason={disabledReason}
      settingsOpen={props.settingsOpenId === section.id}
      onSettingsOpen={() => props.onSettingsOpen(section.id)}
      onSettingsClose={() => props.onSettingsOpen(null)}
      onChange={(update) => props.onSectionsChange((all) => updateSection(all, section.id, update))}
      onDuplicate={() => props.onDuplicate(section)}
      onDelete={() => props.onSectionsChange((all) => all.filter((item) => item.id !== section.id))}
    />
  );

  const layout: Layout = sections.map((section) => {
    const min = moduleOf(section.type)?.minSize;
    return {
      i: section.id,
      ...section.layout,
      ...(min ? { minW: Math.min(min.w, GRID_COLUMNS), minH: min.h } : {}),
    };
  });

  return (
    <div ref={containerRef} className="visor-grid">
      {mounted && width < NARROW_WIDTH ? (
        <div className="visor-grid__column">
          {readingOrder(sections).map((section) => (
            <div key={section.id} className="visor-grid__stacked" style={{ minHeight: section.layout.h * ROW_HEIGHT }}>
              {frame(section)}
            </div>
          ))}
        </div>
      ) : mounted ? (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: GRID_COLUMNS, rowHeight: ROW_HEIGHT, margin: MARGIN, containerPadding: [0, 0] }}
          dragConfig={{ enabled: movable, handle: '.section-frame__drag', cancel: 'input, button, textarea, select, a, [role="dialog"]' }}
          resizeConfig={{ enabled: movable, handles: ['se'] }}
          compactor={verticalCompactor}
          onLayoutChange={(next) => {
            if (movable) props.onSectionsChange((all) => applyLayout(all, next));
          }}
        >
          {sections.map((section) => (
            <div key={section.id} className="visor-grid__item">
              {frame(section)}
            </div>
          ))}
        </ReactGridLayout>
      ) : null}
    </div>
  );
}
