/**
 * The one declarative map of SPEC §2.3: which route shows which collection, under which module,
 * and whether it can be edited. Shared by the shell (menus), the route guard, the table screen,
 * the seed (a schema for every collection named here) and the tests that walk every route.
 */

/**
 * Module codes used in entitlements (`props.modules[facility]`). A null list means all modules.
 * `prefix`: how the module's routes begin (SPEC §2.3: /CulPlants, /DisSales, /CrmCampaign…), so its
 * workflows are at /{prefix}Workflows (/CulWorkflows, /DisWorkflows).
 */
export const MODULES = [
  { code: 'cul', name: 'Cultivation', prefix: 'Cul' },
  { code: 'dsh', name: 'Dashboards', prefix: 'Dsh' },
  { code: 'sch', name: 'Tasks', prefix: 'Sch' },
  { code: 'dis', name: 'Distribution', prefix: 'Dis' },
  { code: 'tes', name: 'Testing', prefix: 'Tes' },
  { code: 'fin', name: 'Finance', prefix: 'Fin' },
  { code: 'metrc', name: 'Metrc', prefix: 'Metrc' },
  { code: 'crm', name: 'CRM', prefix: 'Crm' },
  { code: 'oth', name: 'Other', prefix: 'Oth' },
  { code: 'ops', name: 'Operations', prefix: 'Ops' },
  { code: 'set', name: 'Settings', prefix: 'Set' },
  { code: 'help', name: 'Help', prefix: 'Help' },
  { code: 'sensors', name: 'Sensors', prefix: 'Sensors' },
  { code: 'automation', name: 'Automation', prefix: 'Automation' },
  { code: 'sidekick', name: 'Sidekick', prefix: 'Sidekick' },
] as const
export type ModuleCode = (typeof MODULES)[number]['code']

export type ScreenKind = 'table' | 'dashboard' | 'calendar' | 'help' | 'form' | 'prefs' | 'tables' | 'html' | 'page' | 'reconcile'

export interface RouteEntry {
  path: string
  title: string
  /** module that must be entitled; 'super' means super role only; 'admin' the facility's admins (and super); 'all' any signed-in user */
  module: ModuleCode | 'super' | 'admin' | 'all'
  /** any of these modules also entitles (e.g. /DshSensors) */
  anyOf?: ModuleCode[]
  kind: ScreenKind
  /** collection behind a table screen */
  collection?: string
  /** read-only table (no add/edit/delete) */
  readOnly?: boolean
  /** menu group heading; defaults to the module name */
  group?: string
  /** platform collection: lives under the platform organisation, not the facility */
  platform?: boolean
  /** who may write the screen's table when not everyone who opens it: 'super' (platform staff write, the rest read) */
  writers?: 'super'
}

const t = (path: string, title: string, module: RouteEntry['module'], collection: string, extra: Partial<RouteEntry> = {}): RouteEntry => ({
  path, title, module, kind: 'table', collection, ...extra,
})
const ro = { readOnly: true } as const
const sup = (path: string, title: string, collection: string, extra: Partial<RouteEntry> = {}) =>
  t(path, title, 'super', collection, { platform: true, group: 'Super Admin', ...extra })

/** Built by a call marked pure, so a browser bundle that names nothing of it leaves the whole list out (decision 071). */
export const ROUTES: RouteEntry[] = /* @__PURE__ */ routeList()

function routeList(): RouteEntry[] {
  return [
    // Cultivation
    t('/culProducts', 'Products', 'cul', 'fac_products'),
    t('/culInventory', 'Inventory', 'cul', 'fac_inventory'),
    t('/culBins', 'Bins', 'cul', 'fac_bins'),
    t('/CulMoms', 'Mothers', 'cul', 'fac_moms'),
    t('/CulClones', 'Clones', 'cul', 'fac_clones'),
    t('/CulPlantings', 'Plantings', 'cul', 'fac_plantings'),
    t('/culPlants', 'Plants', 'cul', 'fac_plants'),
    t('/CulHarvest', 'Harvests', 'cul', 'fac_harvests'),
    t('/CulProcess', 'Processing', 'cul', 'fac_processing'),
    t('/culTrim', 'Trim', 'cul', 'fac_trim'),
    t('/culReports', 'Reports', 'cul', 'fac_reports'),
    t('/culWaste', 'Waste', 'cul', 'fac_waste'),
    // Dashboards
    { path: '/DshPlants', title: 'Plants Dashboard', module: 'dsh', kind: 'dashboard', collection: 'fac_plants' },
    { path: '/DshHarvests', title: 'Harvests Dashboard', module: 'dsh', kind: 'dashboard', collection: 'fac_harvests' },
    { path: '/DshCompliance', title: 'Compliance Dashboard', module: 'dsh', kind: 'dashboard', collection: 'fac_waste' },
    { path: '/DshCultivation', title: 'Cultivation Dashboard', module: 'dsh', kind: 'dashboard', collection: 'fac_plantings' },
    { path: '/DshSensors', title: 'Sensors', module: 'sensors', anyOf: ['sensors', 'automation', 'sidekick'], kind: 'dashboard', collection: 'sen_devices', group: 'Dashboards' },
    // Tasks
    { path: '/SchCalendar', title: 'Calendar', module: 'sch', kind: 'calendar', collection: 'sch_tasks' },
    // the tasks as a table: what the dashboards' task figures link to (the calendar shows them by day)
    t('/SchTasks', 'Tasks', 'sch', 'sch_tasks'),
    // Distribution
    t('/DIsProducts', 'Products', 'dis', 'dis_products'),
    t('/DIsInventory', 'Inventory', 'dis', 'dis_inventory'),
    t('/DisCart', 'Create Order', 'dis', 'dis_cart'),
    t('/DisSales', 'Orders', 'dis', 'dis_orders'),
    // the orders as a table (every column, search, export, bulk edit); /DisSales is the orders flow (issue 24)
    t('/DisOrderTable', 'Order Table', 'dis', 'dis_orders'),
    t('/DisReports', 'Reports', 'dis', 'dis_reports'),
    // Testing
    t('/TesInventory', 'Inventory', 'tes', 'tes_inventory'),
    // Finance
    t('/TaxInventory', 'Tax Inventory', 'fin', 'tax_inventory'),
    t('/FinPayments', 'Payments', 'fin', 'fin_payments'),
    t('/TaxReceivables', 'Receivables', 'fin', 'tax_receivables'),
    t('/FinReports', 'Reports', 'fin', 'fin_reports'),
    // Metrc reference tables (read-only)
    t('/MetrcCustomerTypes', 'Customer Types', 'metrc', 'metrc_customer_types', ro),
    t('/MetrcXferStates', 'Transfer Package States', 'metrc', 'metrc_xfer_states', ro),
    t('/MetrcUnits', 'Units of Measure', 'metrc', 'metrc_units', ro),
    t('/MetrcItemCategory', 'Item Categories', 'metrc', 'metrc_item_categories', ro),
    t('/MetrcItemBrand', 'Item Brands', 'metrc', 'metrc_item_brands', ro),
    t('/MetrcLabStates', 'Lab Test States', 'metrc', 'metrc_lab_states', ro),
    t('/MetrcLabTypes', 'Lab Test Types', 'metrc', 'metrc_lab_types', ro),
    t('/MetrcPackageTypes', 'Package Types', 'metrc', 'metrc_package_types', ro),
    t('/MetrcPackageAdjust', 'Package Adjust Reasons', 'metrc', 'metrc_package_adjust', ro),
    t('/MetrcAddTypes', 'Additive Types', 'metrc', 'metrc_additive_types', ro),
    t('/MetrcPlantGrowth', 'Plant Growth Phases', 'metrc', 'metrc_plant_growth', ro),
    t('/MetrcPlantBatchTypes', 'Plant Batch Types', 'metrc', 'metrc_plant_batch_types', ro),
    t('/MetrcLocationTypes', 'Location Types', 'metrc', 'metrc_location_types', ro),
    t('/MetrcHarvestWasteType', 'Harvest Waste Types', 'metrc', 'metrc_harvest_waste_types', ro),
    t('/MetrcWasteReasons', 'Waste Reasons', 'metrc', 'metrc_waste_reasons', ro),
    t('/MetrcWasteMethods', 'Waste Methods', 'metrc', 'metrc_waste_methods', ro),
    t('/MetrcLicense', 'License', 'metrc', 'metrc_license', ro),
    t('/MetrcTransfers', 'Transfer Types', 'metrc', 'metrc_transfer_types', ro),
    // Metrc data tables
    t('/MetrcLabTests', 'Lab Tests', 'metrc', 'metrc_lab_tests', ro),
    t('/MetrcEmployees', 'Employees', 'metrc', 'metrc_employees', ro),
    t('/MetrcFacilities', 'Facilities', 'metrc', 'metrc_facilities', ro),
    t('/MetrcHarvests', 'Harvests', 'metrc', 'metrc_harvests', ro),
    t('/MetrcPatients', 'Patients', 'metrc', 'metrc_patients', ro),
    t('/MetrcPlantBatches', 'Plant Batches', 'metrc', 'metrc_plant_batches', ro),
    t('/MetrcPlants', 'Plants', 'metrc', 'metrc_plants', ro),
    t('/MetrcRooms', 'Rooms', 'metrc', 'metrc_rooms', ro),
    t('/MetrcSTrains', 'Strains', 'metrc', 'metrc_strains', ro),
    t('/MetrcItems', 'Items', 'metrc', 'metrc_items'),
    t('/MetrcPackages', 'Packages', 'metrc', 'metrc_packages'),
    t('/MetrcWMix', 'Waste Mix', 'metrc', 'metrc_wmix'),
    // METRC's unused plant and package tags (the Compliance dashboard's "tags on hand" link here)
    t('/MetrcTags', 'Tags on hand', 'metrc', 'metrc_tags', ro),
    { path: '/MetrcPrefs', title: 'Workflow Preferences', module: 'metrc', kind: 'prefs', collection: 'metrc_prefs' },
    // METRC drift (issue 9 item 7): its own route, app/routes/MetrcDrift.tsx
    { path: '/MetrcDrift', title: 'Drift Reconciliation', module: 'metrc', kind: 'reconcile' },
    // pushes to METRC and what became of them (issue 9; its own route module: routes/MetrcOutbox.tsx)
    { path: '/MetrcOutbox', title: 'METRC Outbox', module: 'metrc', kind: 'page' },
    // CRM
    // the product's changelog (app/areas/release-notes): one list on the platform, written by super only
    t('/CrmReleaseNotes', 'Release Notes', 'crm', 'crm_release_notes', { platform: true, writers: 'super' }),
    t('/CrmCampaign', 'Campaigns', 'crm', 'crm_campaigns'),
    t('/CrmLink', 'Links', 'crm', 'crm_links'),
    t('/CrmTemplate', 'Templates', 'crm', 'crm_templates'),
    t('/CrmProspect', 'Prospects', 'crm', 'crm_prospects'),
    t('/CrmUnsub', 'Unsubscribed', 'crm', 'crm_unsub', ro),
    t('/CrmWorkflow', 'Workflow', 'crm', 'crm_workflows'),
    t('/CrmCampaignCreate', 'Create Campaign', 'crm', 'crm_campaign_drafts'),
    t('/CrmSalesPipeline', 'Sales Pipeline', 'crm', 'crm_pipeline'),
    t('/CrmPartners', 'Partners', 'crm', 'crm_partners'),
    t('/CrmDownloadRequests', 'Download Requests', 'crm', 'crm_download_requests'),
    t('/CrmMessages', 'Messages', 'crm', 'crm_messages'),
    t('/CrmToDo', 'To Do', 'crm', 'crm_todo'),
    // Other
    t('/VisLog', 'Visitor Log', 'oth', 'vis_log'),
    t('/PolDocs', 'Policies', 'oth', 'pol_docs'),
    t('/DocFileUpload', 'File Upload', 'oth', 'doc_files'),
    t('/DocHTMLEditor', 'HTML Editor', 'oth', 'doc_html'),
    t('/DocList', 'Documents', 'oth', 'doc_list'),
    t('/TeamGroups', 'Teams', 'oth', 'team_groups'),
    t('/MsgMessages', 'Messages', 'oth', 'msg_messages'),
    // Operations
    t('/OpsEngineering', 'Engineering', 'ops', 'ops_engineering'),
    t('/OpsEnhancements', 'Enhancements', 'ops', 'ops_enhancements'),
    t('/OpsMarketing', 'Marketing', 'ops', 'ops_marketing'),
    t('/OpsSales', 'Sales', 'ops', 'ops_sales'),
    // Settings (Facilities group: rooms and strains)
    t('/SetContactsPeople', 'Contacts', 'set', 'set_contacts'),
    t('/SetClients', 'Clients', 'set', 'set_clients'),
    t('/SetRooms', 'Rooms', 'set', 'set_rooms', { group: 'Facilities' }),
    t('/SetTransport', 'Transport', 'set', 'set_transport'),
    t('/SetStrain', 'Strains', 'set', 'set_strains', { group: 'Facilities' }),
    t('/SetTax', 'Tax Rates', 'set', 'set_tax'),
    t('/SetRelation', 'Relations', 'set', 'set_relations'),
    t('/SetMylic', 'My Licenses', 'set', 'set_mylic'),
    t('/SetGroups', 'Groups', 'set', 'set_groups'),
    t('/SetProdtype', 'Product Types', 'set', 'set_prodtypes'),
    t('/SetIntCustomer', 'Internal Customers', 'set', 'set_int_customers'),
    t('/SetPrinters', 'Printers', 'set', 'set_printers'),
    // device settings of SPEC §3 (not in SPEC's route list; issue 8 item 4): sensor devices, scanner
    // settings, input device mappings, beside the printers
    t('/SetSensorDevices', 'Sensor Devices', 'set', 'sen_devices', { group: 'Devices' }),
    t('/SetScanners', 'Scanner Settings', 'set', 'sen_scanner_settings', { group: 'Devices' }),
    t('/SetInputDevices', 'Input Devices', 'set', 'sen_input_devices', { group: 'Devices' }),
    t('/SetRole', 'Roles', 'set', 'set_roles'),
    // SPEC §3 "Other tables: … set_cannabis": the platform's cannabis reference (potency and serving limits
    // per state, market and category), read-only under Settings for every facility (decision 060)
    t('/SetCannabis', 'Cannabis Reference', 'set', 'set_cannabis', { platform: true, readOnly: true }),
    // Help
    { path: '/HelpTutorials', title: 'Tutorials', module: 'help', kind: 'help' },
    { path: '/HelpVideos', title: 'Videos', module: 'help', kind: 'help' },
    { path: '/HelpExternal', title: 'External Resources', module: 'help', kind: 'help' },
    { path: '/HelpProducts', title: 'Products', module: 'help', kind: 'help' },
    { path: '/HelpSensors', title: 'Sensors', module: 'help', kind: 'help' },
    // Super only (platform collections)
    sup('/SupOrchestration', 'Orchestration', 'sup_orchestration'),
    sup('/SupOrchestrationNode', 'Orchestration Nodes', 'sup_orchestration_nodes'),
    sup('/SupNewAccount', 'New Accounts', 'sup_new_accounts'),
    sup('/SupStates', 'States', 'set_usstate'),
    sup('/SupUsers', 'Users', 'users'),
    sup('/SupOrgs', 'Organisations', 'org'),
    sup('/SupProvisions', 'Provisions', 'auth_provisions'),
    sup('/SupIntegrations', 'Integrations', 'sup_integrations'),
    sup('/SupGoldenVars', 'System Variables', 'sup_golden_vars'),
    sup('/SupHeart', 'Heartbeats', 'sup_heartbeats'),
    sup('/SupLoginSummary', 'Login Summary', 'sup_login_summary', ro),
    sup('/SupSchema', 'Schemas', 'schemas'),
    sup('/SupDictionary', 'Dictionary', 'dictionary'),
    sup('/SupPhrasemap', 'Phrase Map', 'auth_phrasemap'),
    sup('/SupBots', 'Bots', 'sup_bots'),
    sup('/SupBotActions', 'Bot Actions', 'sup_bot_actions'),
    sup('/SupBotMsg', 'Bot Messages', 'auth_bot_msg'),
    sup('/SupEmailStructure', 'Email Structure', 'sup_email_structure'),
    sup('/SupStatus', 'Status', 'sup_status'),
    sup('/SupFirmwares', 'Firmwares', 'ota'),
    sup('/SupCalendar', 'Calendar', 'sup_calendar'),
    sup('/SupDocs', 'Documents', 'sup_docs'),
    sup('/SupServices', 'Services', 'sup_services'),
    sup('/SupFileUpload', 'File Upload', 'sup_files'),
    sup('/HTMLEditor', 'HTML Editor', 'sup_html'),
    sup('/SupPipelines', 'Pipelines', 'sup_pipelines'),
    sup('/SupPlans', 'Plans', 'sup_plans'),
    sup('/SupModules', 'Modules', 'sup_modules'),
    sup('/SupTasks', 'Tasks', 'sup_tasks'),
    sup('/SupPolicy', 'Policy', 'sup_policy'),
    sup('/SupDispatchLog', 'Dispatch Log', 'sup_dispatch_log', ro),
    sup('/SupWorkflowTable', 'Workflow Table', 'sup_workflow_table'),
    sup('/supWorkflows', 'Workflows', 'auth_workflows'),
    sup('/SupAppWorkflows', 'App Workflows', 'sup_app_workflows'),
    sup('/SupAppDocuments', 'App Documents', 'sup_app_documents'),
    sup('/SupAppDashboards', 'App Dashboards', 'sup_app_dashboards'),
    sup('/SupTableRemove', 'Table Remove', 'sup_table_remove'),
    sup('/SupWorkflowRouting', 'Workflow Routing', 'sup_workflow_routing'),
    sup('/SupDebug', 'Debug', 'sup_debug'),
    sup('/METRCDefaults', 'METRC Defaults', 'metrc_defaults'),
    sup('/METRCStates', 'METRC States', 'metrc_states'),
    sup('/SupServers', 'Servers', 'sup_servers'),
    sup('/SupServerClass', 'Server Classes', 'sup_server_classes'),
    sup('/SupForms', 'Forms', 'sup_forms'),
    sup('/SupOrgMenus', 'Organisation Menus', 'sup_org_menus'),
    sup('/SupEntitlements', 'Entitlements', 'sup_entitlements'),
    sup('/SupFaceRecognition', 'Face Recognition', 'sup_face_recognition'),
    // global messages (inf_global; not in SPEC's route list, issue 8): a new one toasts for the
    // people of the facility it is written in (app/bus/global-messages.server.ts)
    sup('/SupGlobalMessages', 'Global Messages', 'inf_global'),
    // General routes (SPEC §2.2), open to every signed-in user; not in the drawer
    t('/SupportTicket', 'Support', 'all', 'support_tickets'),
    { path: '/Table', title: 'Tables', module: 'all', kind: 'tables' },
    { path: '/DisplayHTML', title: 'Documents', module: 'all', kind: 'html', collection: 'sup_html', platform: true },
    // the policies waiting for the signed-in user (issue 26; its own route module, app/areas/documents)
    { path: '/MyPolicies', title: 'My Policies', module: 'all', kind: 'page' },
    // every published release note, newest first (app/areas/release-notes); the user menu links here
    { path: '/ReleaseNotes', title: 'Release notes', module: 'all', kind: 'page' },
    // a facility admin's users: invite, rights, disable (issue 22, app/areas/onboarding); in the drawer's Administration group
    { path: '/Users', title: 'Users', module: 'admin', kind: 'page', group: 'Administration' },
  ]
}

/** The organisation that holds platform-wide collections (users, orgs, schemas, modules, ...). */
export const PLATFORM_ORG = 'auth'

/** Facility collections behind table screens (one schema each, seeded per facility). */
export function facilityCollections(): string[] {
  return [...new Set(ROUTES.filter((r) => r.collection && !r.platform).map((r) => r.collection!))]
}

/** Platform collections behind Super screens. */
export function platformCollections(): string[] {
  return [...new Set(ROUTES.filter((r) => r.collection && r.platform).map((r) => r.collection!))]
}

export function findRoute(path: string): RouteEntry | undefined {
  const p = path.replace(/\/+$/, '') || '/'
  return ROUTES.find((r) => r.path.toLowerCase() === p.toLowerCase())
}

/** Is this collection the platform's (kept under PLATFORM_ORG) rather than a facility's? */
export function isPlatformCollection(name: string): boolean {
  return platformCollections().includes(name) || name.startsWith('sup_') || name.startsWith('auth_') || name === 'org' || name === 'users'
}
