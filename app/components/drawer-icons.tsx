/**
 * One small line drawing per drawer group (decision 061): what the collapsed drawer shows. Symbols of
 * the page's one sprite like ./icons.tsx (their drawings: GROUP_DRAWINGS in icon-drawings.tsx);
 * decorative, the group's name is beside it (read by a screen reader when the drawer is collapsed).
 */
import { SpriteIcon } from './icons'

const base = { width: 20, height: 20, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true } as const

/** the drawing's paths by group name; a group without one gets the first letter of its name */
export const GROUP_PATHS: Record<string, string> = {
  'Pinned views': 'M12 17v5M9 3h6l-1 7 4 3v2H6v-2l4-3Z',
  Cultivation: 'M12 21v-9M12 12c0-4 3-7 8-7 0 5-3 7-8 7ZM12 14c0-3-2-6-7-6 0 4 2 6 7 6Z',
  Dashboards: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  Tasks: 'M8 3v4M16 3v4M3 9h18M5 5h14a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2ZM8 15l2 2 5-5',
  Distribution: 'M3 7h11v10H3ZM14 11h4l3 3v3h-7M7 20a2 2 0 1 0 0-.01M17 20a2 2 0 1 0 0-.01',
  Testing: 'M9 3h6M10 3v6l-5 9a2 2 0 0 0 2 3h10a2 2 0 0 0 2-3l-5-9V3M7 15h10',
  Finance: 'M12 2v20M17 6H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6',
  Metrc: 'M12 3 4 7v5c0 5 3.5 8 8 9 4.5-1 8-4 8-9V7ZM9 12l2 2 4-4',
  CRM: 'M17 21v-2a4 4 0 0 0-4-4H5a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-.01M23 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8',
  Other: 'M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9ZM14 3v6h6M8 13h8M8 17h6',
  Operations: 'M12 15a3 3 0 1 0 0-.01M19 12a7 7 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7 7 0 0 0-2-1.2L14 3h-4l-.5 2.6a7 7 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6A7 7 0 0 0 5 12c0 .4 0 .8.1 1.2l-2 1.6 2 3.4 2.4-1a7 7 0 0 0 2 1.2L10 21h4l.5-2.6a7 7 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2Z',
  Settings: 'M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0M16 4v4M10 10v4M18 16v4',
  Facilities: 'M3 21h18M5 21V8l7-5 7 5v13M9 21v-6h6v6',
  Devices: 'M5 3h14v12H5ZM9 19h6M12 15v4',
  Help: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20ZM9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3M12 17h0',
  Sensors: 'M14 14.8V4a2 2 0 0 0-4 0v10.8a4 4 0 1 0 4 0Z',
  Administration: 'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-.01M19 8v6M22 11h-6',
  'Super Admin': 'M12 2l3 6 6 .9-4.5 4.3 1 6.3L12 16.5 6.5 19.5l1-6.3L3 8.9 9 8Z',
}

export const groupKey = (name: string) => `group-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`

export function GroupIcon({ name }: { name: string }) {
  if (!GROUP_PATHS[name])
    return (
      <svg {...base}>
        <text x="12" y="17" textAnchor="middle" fontSize="14" fill="currentColor" stroke="none">
          {name.slice(0, 1)}
        </text>
      </svg>
    )
  return <SpriteIcon name={groupKey(name)} size={20} />
}

/** the collapse control: chevrons pointing where the drawer goes */
export const CollapseIcon = ({ collapsed }: { collapsed: boolean }) => <SpriteIcon name={collapsed ? 'drawer-expand' : 'drawer-collapse'} size={20} />
