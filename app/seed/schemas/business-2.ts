/**
 * Demo schemas of the "business" group, part 2: Other (visitors, policies, documents, teams,
 * messages) and Operations tickets, plus the field helpers both parts use.
 */
import type { FieldType } from '../../schemas/table-schema'

export interface Item {
  key: string
  label: string
  pos?: number
  align?: 'left' | 'center' | 'right'
  show?: 'no'
  ro?: 'yes'
  type?: FieldType
  format?: string
  filter?: true
  sortable?: true
  required?: true
  en?: { list?: string[]; table?: string; labelField?: string }
  min?: number
  max?: number
  units?: string[]
  /** the edit form's section (issue 33 item 3) */
  group?: string
  array?: Item[]
}
type Opt = Partial<Item>

/** The items of one section of the edit form: each gets the section's name as its `group`. */
export const inGroup = (group: string, items: Item[]): Item[] => items.map((it) => ({ ...it, group }))

export const f = {
  text: (key: string, label: string, o: Opt = {}): Item => ({ key, label, type: 'text', ...o }),
  area: (key: string, label: string, o: Opt = {}): Item => ({ key, label, type: 'textarea', show: 'no', ...o }),
  num: (key: string, label: string, o: Opt = {}): Item => ({ key, label, type: 'number', ...o }),
  money: (key: string, label: string, o: Opt = {}): Item => ({ key, label, type: 'currency', format: 'currency', ...o }),
  date: (key: string, label: string, o: Opt = {}): Item => ({ key, label, type: 'date', format: 'date', ...o }),
  check: (key: string, label: string, o: Opt = {}): Item => ({ key, label, type: 'check', format: 'check', align: 'center', ...o }),
  list: (key: string, label: string, list: readonly string[], o: Opt = {}): Item => ({ key, label, type: 'list', en: { list: [...list] }, ...o }),
  multi: (key: string, label: string, list: readonly string[], o: Opt = {}): Item => ({ key, label, type: 'multilist', en: { list: [...list] }, ...o }),
  ref: (key: string, label: string, table: string, labelField = 'name', o: Opt = {}): Item => ({
    key, label, type: 'list', format: `id:${table}:${labelField}`, en: { table, labelField }, ...o,
  }),
  pdf: (key: string, label: string, o: Opt = {}): Item => ({ key, label, type: 'text', format: 'pdf', align: 'center', ...o }),
}

export const L2 = {
  visitPurpose: ['Vendor Delivery', 'State Inspection', 'Client Tour', 'Contractor / Maintenance', 'Lab Sampling', 'Job Interview', 'Compliance Audit', 'Transport Pickup', 'Investor Visit', 'Pest Control'],
  idType: ["Driver's License", 'State ID', 'Passport', 'Agent Badge'],
  polCategory: ['Security', 'Inventory Control', 'Cultivation', 'Waste Disposal', 'Transport', 'Recall', 'Quality Assurance', 'Employee Safety', 'Sanitation', 'Record Keeping'],
  polStatus: ['Draft', 'In Review', 'Approved', 'Retired'],
  // who a policy is addressed to besides its groups: an account's role, or a job role (users.props.roles)
  polRoles: ['admin', 'user', 'compliance'],
  fileType: ['PDF', 'XLSX', 'DOCX', 'CSV', 'JPG', 'PNG'],
  fileCategory: ['COA', 'Manifest', 'Invoice', 'License', 'Insurance', 'Training', 'Floor Plan', 'Photo', 'Report', 'Contract'],
  htmlCategory: ['Menu', 'Announcement', 'Onboarding', 'Procedure', 'Email Footer', 'Label Insert'],
  docType: ['SOP', 'Form', 'License', 'COA', 'Manifest', 'Contract', 'Insurance', 'Training Record', 'Floor Plan', 'Inspection Report'],
  docStatus: ['Current', 'Expiring Soon', 'Expired', 'Superseded'],
  department: ['Cultivation', 'Post-Harvest', 'Compliance', 'Security', 'Inventory', 'Sales', 'Logistics', 'Finance', 'Administration'],
  shift: ['Day', 'Swing', 'Night', 'Rotating'],
  msgCategory: ['General', 'Compliance', 'Schedule', 'Maintenance', 'Sales', 'HR'],
  priority: ['Low', 'Medium', 'High', 'Urgent'],
  ticketStatus: ['Open', 'In Progress', 'Blocked', 'In Review', 'Done'],
  system: ['HVAC', 'Irrigation / Fertigation', 'Lighting', 'Electrical', 'Plumbing', 'Security / Cameras', 'Network / IT', 'Scales', 'Label Printers', 'Vehicles', 'Racking / Storage', 'Facility'],
  modules: ['Cultivation', 'Dashboards', 'Tasks', 'Distribution', 'Testing', 'Finance', 'Metrc', 'CRM', 'Other', 'Operations', 'Settings', 'Sensors'],
  mktChannel: ['Instagram', 'Email', 'Trade Show', 'Website', 'Budtender Education', 'Print / POS', 'Packaging', 'PR'],
  mktAsset: ['Sell Sheet', 'Menu Card', 'Social Post', 'Banner', 'Video', 'Brochure', 'Press Release', 'Packaging Art', 'Event Booth'],
  salesType: ['Pricing Request', 'Sample Request', 'New Account Setup', 'Credit Review', 'Order Issue', 'Return / Credit', 'Menu Placement', 'Contract Renewal'],
}

const S = (key: string, label: string, items: Item[], extra: Record<string, unknown> = {}) => ({ key, label, items, ...extra })

const ticket = (key: string, label: string, extra: Item[]) =>
  S(key, label, [
    f.text('ticket', 'Ticket', { filter: true, sortable: true, align: 'center', ro: 'yes' }),
    f.text('title', 'Title', { required: true, filter: true }),
    f.list('status', 'Status', L2.ticketStatus, { sortable: true }),
    f.list('priority', 'Priority', L2.priority, { sortable: true }),
    f.text('owner', 'Owner', { filter: true }),
    f.text('requester', 'Requester', { show: 'no' }),
    ...extra,
    f.date('created', 'Created', { sortable: true }),
    f.date('due', 'Due', { sortable: true }),
    f.num('estimate_hours', 'Estimate (h)', { min: 0 }),
    f.area('description', 'Description'),
  ], { dateField: 'due', defaultSort: { key: 'due', dir: 'asc' } })

const other = [
  S('vis_log', 'Visitor Log', [
    f.text('visitor', 'Visitor', { required: true, filter: true, sortable: true }),
    f.text('company', 'Company', { filter: true }),
    f.list('purpose', 'Purpose', L2.visitPurpose),
    f.ref('host', 'Host', 'set_contacts', 'name'),
    f.text('badge', 'Badge #', { align: 'center' }),
    f.date('signed_in', 'Signed In', { sortable: true }),
    f.date('signed_out', 'Signed Out'),
    f.list('id_type', 'ID Type', L2.idType, { show: 'no' }),
    f.check('id_checked', 'ID Checked'),
    f.check('nda_signed', 'NDA Signed'),
    f.check('escorted', 'Escorted'),
    f.text('vehicle_plate', 'Vehicle Plate', { show: 'no' }),
    f.area('notes', 'Notes'),
    // issue 27: the member of staff a kiosk sign-in names as host (told by the shell and by mail)
    f.text('host_name', 'Host (staff)', { show: 'no' }),
    f.text('host_uid', 'Host Account', { show: 'no' }),
  ], { dateField: 'signed_in', statusField: 'id_checked', defaultSort: { key: 'signed_in', dir: 'desc' } }),
  S('pol_docs', 'Policies', [
    f.text('title', 'Policy', { required: true, filter: true, sortable: true }),
    f.text('doc_no', 'Doc #', { filter: true, align: 'center' }),
    f.text('version', 'Version', { align: 'center' }),
    f.list('category', 'Category', L2.polCategory),
    f.text('owner', 'Owner'),
    f.text('approved_by', 'Approved By', { show: 'no' }),
    f.date('effective', 'Effective', { sortable: true }),
    f.date('review_due', 'Review Due', { sortable: true }),
    f.list('status', 'Status', L2.polStatus),
    f.check('approved', 'Approved'),
    f.pdf('pdf', 'PDF'),
    f.area('summary', 'Summary'),
    // issue 26: the policy itself, who must read it, and the version they acknowledge (app/areas/documents)
    { key: 'body', label: 'Policy Text', type: 'document', show: 'no' },
    { key: 'groups', label: 'Groups', type: 'multilist', en: { table: 'team_groups', labelField: 'name' }, show: 'no' },
    f.multi('roles', 'Roles', L2.polRoles, { show: 'no' }),
    f.num('published_version', 'Published Version', { show: 'no' }),
    f.date('published_at', 'Published', { show: 'no' }),
  ], { dateField: 'effective', statusField: 'approved' }),
  S('doc_files', 'File Upload', [
    f.text('name', 'File Name', { required: true, filter: true, sortable: true }),
    f.list('category', 'Category', L2.fileCategory, { filter: true }),
    f.list('file_type', 'Type', L2.fileType, { align: 'center' }),
    f.num('size_kb', 'Size (KB)'),
    f.text('uploaded_by', 'Uploaded By'),
    f.date('uploaded', 'Uploaded', { sortable: true }),
    { key: 'file', label: 'File', type: 'fileDND', show: 'no' },
    f.text('tags', 'Tags', { show: 'no' }),
  ], { dateField: 'uploaded', defaultSort: { key: 'uploaded', dir: 'desc' } }),
  S('doc_html', 'HTML Documents', [
    f.text('title', 'Title', { required: true, filter: true, sortable: true }),
    f.text('slug', 'Slug'),
    f.list('category', 'Category', L2.htmlCategory, { filter: true }),
    f.text('author', 'Author'),
    f.date('updated', 'Updated', { sortable: true }),
    f.check('published', 'Published'),
    { key: 'body', label: 'Content', type: 'document', show: 'no' },
  ], { dateField: 'updated', statusField: 'published' }),
  S('doc_list', 'Documents', [
    f.text('title', 'Document', { required: true, filter: true, sortable: true }),
    f.text('doc_no', 'Doc #', { align: 'center' }),
    f.list('doc_type', 'Type', L2.docType, { filter: true }),
    f.text('owner', 'Owner'),
    f.date('updated', 'Updated', { sortable: true }),
    f.date('expires', 'Expires', { sortable: true }),
    f.list('status', 'Status', L2.docStatus),
    f.pdf('link', 'PDF'),
  ], { dateField: 'updated' }),
  S('team_groups', 'Teams', [
    f.text('name', 'Team', { required: true, filter: true, sortable: true }),
    f.list('department', 'Department', L2.department, { filter: true }),
    f.text('lead', 'Lead'),
    f.num('members', 'Members'),
    f.list('shift', 'Shift', L2.shift),
    f.text('channel', 'Chat Channel'),
    f.text('description', 'Description'),
    // the accounts in the team (user ids): policies addressed to the team reach them (issue 26). Read-only
    // here, so a generic edit never empties it; issue 22's /TeamGroups screen edits it
    { key: 'member_uids', label: 'Member Accounts', type: 'multilist', ro: 'yes', show: 'no' },
  ]),
  S('msg_messages', 'Messages', [
    f.text('subject', 'Subject', { required: true, filter: true }),
    f.text('from', 'From', { filter: true, sortable: true }),
    f.text('to', 'To'),
    f.list('category', 'Category', L2.msgCategory),
    f.list('priority', 'Priority', L2.priority),
    f.date('sent', 'Sent', { sortable: true }),
    f.check('read', 'Read'),
    f.area('body', 'Message'),
  ], { dateField: 'sent', statusField: 'read', defaultSort: { key: 'sent', dir: 'desc' } }),
]

const ops = [
  ticket('ops_engineering', 'Engineering', [
    f.list('system', 'System', L2.system, { filter: true }),
    f.text('location', 'Location'),
    f.money('cost', 'Est. Cost'),
  ]),
  ticket('ops_enhancements', 'Enhancements', [
    f.list('module', 'Module', L2.modules, { filter: true }),
    f.num('votes', 'Votes', { sortable: true }),
    f.text('target_release', 'Target Release', { align: 'center' }),
  ]),
  ticket('ops_marketing', 'Marketing', [
    f.list('channel', 'Channel', L2.mktChannel, { filter: true }),
    f.list('asset', 'Asset', L2.mktAsset),
    f.money('budget', 'Budget'),
  ]),
  // what users send with the Support button (/SupportTicket)
  ticket('support_tickets', 'Support Tickets', [
    f.list('module', 'Module', L2.modules, { filter: true }),
    f.area('description', 'What happened'),
  ]),
  ticket('ops_sales', 'Sales', [
    f.list('request_type', 'Request Type', L2.salesType, { filter: true }),
    f.ref('client', 'Client', 'set_clients', 'name'),
    f.money('value', 'Value'),
  ]),
]

export const schemas2 = [...other, ...ops]
