/**
 * The sprite's symbols as markup, rendered once when the server starts (decision 077): every drawing
 * of icon-drawings.tsx as a <symbol id="i-…">. entry.server.tsx hands it to <IconSprite/> through
 * SpriteMarkupContext, so no request renders the drawings again and the browser never needs them.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { DRAWINGS, GROUP_DRAWINGS } from './icon-drawings'

export const SPRITE_MARKUP = renderToStaticMarkup(
  <>
    {Object.entries({ ...DRAWINGS, ...GROUP_DRAWINGS }).map(([name, drawing]) => (
      <symbol key={name} id={`i-${name}`} viewBox="0 0 24 24">
        {drawing}
      </symbol>
    ))}
  </>,
)
