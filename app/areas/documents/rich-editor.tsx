/**
 * The rich-text editor (issue 26 item 1; TipTap on ProseMirror, decision 044), loaded only by the
 * editor page (React.lazy in doc-editor.tsx: its own chunk, so no other page's JavaScript grows).
 * Headings, bold, italic, lists, tables, links, images from the organisation's document store.
 * Pasted HTML (Word, Google Docs) is cleaned before ProseMirror reads it: Office comments and
 * namespaced tags, styles and classes, Google's bold wrapper go; the editor's schema then keeps only
 * what it knows, and the server's sanitiser has the last word.
 */
import { useState } from 'react'
import { EditorContent, useEditor, type Editor } from '@tiptap/react'
import StarterKit from '@tiptap/starter-kit'
import Image from '@tiptap/extension-image'
import { TableKit } from '@tiptap/extension-table'

/** Pasted HTML as ProseMirror should read it. */
export function cleanPastedHtml(html: string): string {
  return (
    html
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<\/?(o|w|m|v|st1):[^>]*>/gi, '')
      .replace(/<(style|script|meta|link|title|xml)[\s\S]*?(<\/\1>|\/>|>)/gi, '')
      // Google Docs wraps a whole paste in <b id="docs-internal-guid-…" style="font-weight:normal">
      .replace(/<b[^>]*id="docs-internal-guid[^"]*"[^>]*>([\s\S]*)<\/b>/i, '$1')
      .replace(/\s(style|class|lang|align|id)="[^"]*"/gi, '')
      .replace(/\s(style|class|lang|align|id)='[^']*'/gi, '')
  )
}

const btn = 'min-h-11 min-w-11 rounded border border-slate-600 px-2 text-sm hover:bg-slate-800 aria-pressed:bg-canopy-800'

function Toolbar({ editor, images }: { editor: Editor; images: Array<{ name: string; href: string }> }) {
  const [image, setImage] = useState(images[0]?.href ?? '')
  const b = (label: string, run: () => void, active?: boolean, title?: string) => (
    <button type="button" className={btn} onClick={run} aria-pressed={active} title={title ?? label}>
      {label}
    </button>
  )
  const c = () => editor.chain().focus()
  const link = () => {
    const prev = editor.getAttributes('link').href as string | undefined
    const href = window.prompt('Link address (https://…)', prev ?? 'https://')
    if (href === null) return
    if (!href.trim()) c().unsetLink().run()
    else c().extendMarkRange('link').setLink({ href: href.trim() }).run()
  }
  const inTable = editor.isActive('table')
  return (
    <div role="toolbar" aria-label="Formatting" className="flex flex-wrap items-center gap-1 border-b border-slate-700 p-2">
      {b('H2', () => c().toggleHeading({ level: 2 }).run(), editor.isActive('heading', { level: 2 }), 'Heading')}
      {b('H3', () => c().toggleHeading({ level: 3 }).run(), editor.isActive('heading', { level: 3 }), 'Subheading')}
      {b('B', () => c().toggleBold().run(), editor.isActive('bold'), 'Bold')}
      {b('I', () => c().toggleItalic().run(), editor.isActive('italic'), 'Italic')}
      {b('• List', () => c().toggleBulletList().run(), editor.isActive('bulletList'), 'Bulleted list')}
      {b('1. List', () => c().toggleOrderedList().run(), editor.isActive('orderedList'), 'Numbered list')}
      {b('Link', link, editor.isActive('link'))}
      {b('Table', () => c().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(), false, 'Insert table')}
      {inTable ? (
        <>
          {b('+ Row', () => c().addRowAfter().run(), false, 'Add row')}
          {b('+ Column', () => c().addColumnAfter().run(), false, 'Add column')}
          {b('− Row', () => c().deleteRow().run(), false, 'Delete row')}
          {b('− Column', () => c().deleteColumn().run(), false, 'Delete column')}
          {b('Delete table', () => c().deleteTable().run())}
        </>
      ) : null}
      {b('Undo', () => c().undo().run())}
      {b('Redo', () => c().redo().run())}
      {images.length ? (
        <span className="flex items-center gap-1">
          <label htmlFor="rich-image" className="sr-only">
            Image from the document store
          </label>
          <select id="rich-image" value={image} onChange={(e) => setImage(e.target.value)} className="min-h-11 max-w-48 rounded border border-slate-600 bg-slate-900 px-2 text-sm">
            {images.map((i) => (
              <option key={i.href} value={i.href}>
                {i.name}
              </option>
            ))}
          </select>
          {b('Insert image', () => image && c().setImage({ src: image, alt: images.find((i) => i.href === image)?.name ?? '' }).run())}
        </span>
      ) : null}
    </div>
  )
}

export default function RichEditor({ html, onChange, images }: { html: string; onChange: (html: string) => void; images: Array<{ name: string; href: string }> }) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ heading: { levels: [1, 2, 3, 4] }, link: { openOnClick: false, autolink: true, protocols: ['mailto', 'tel'] } }), Image, TableKit.configure({ table: { resizable: false } })],
    content: html,
    immediatelyRender: false,
    editorProps: {
      transformPastedHTML: cleanPastedHtml,
      attributes: { class: 'doc-content min-h-72 p-3 focus:outline-none', 'aria-label': 'Document text', role: 'textbox', 'aria-multiline': 'true' },
    },
    onUpdate: ({ editor: e }) => onChange(e.getHTML()),
  })
  if (!editor) return <p className="text-slate-400">Loading the editor…</p>
  return (
    <div className="rounded-md border border-slate-600 bg-slate-900" data-rich-editor="ready">
      <Toolbar editor={editor} images={images} />
      <EditorContent editor={editor} />
    </div>
  )
}
