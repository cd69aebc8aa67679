/**
 * The five Help screens of SPEC §2.3 (/HelpTutorials, /HelpVideos, /HelpExternal, /HelpProducts,
 * /HelpSensors) as typed data, rendered by components/help-view.tsx. Written for growers on the
 * floor: plain, short sentences, the real screen names and routes, the SPEC's messages and limits.
 * Titles, headings and texts are phrase-map keys (English text is the key), passed through t().
 * Server-side data: the renderer imports only the types, so the texts stay out of the client bundle.
 */
import { CREDENTIAL_STATES } from '../auth/messages'

export type HelpColour = 'red' | 'orange' | 'yellow' | 'green' | 'blue'

export type HelpBlock =
  | { kind: 'p'; text: string }
  /** ordered steps */
  | { kind: 'steps'; items: string[] }
  | { kind: 'list'; items: string[] }
  | { kind: 'table'; head: string[]; rows: string[][] }
  /** a tip or warning callout */
  | { kind: 'note'; text: string }
  /** internal links start with '/', external ones with https:// */
  | { kind: 'link'; href: string; label: string; text: string }
  /** the sensor gauge legend */
  | { kind: 'colour'; rows: Array<{ colour: HelpColour; when: string; meaning: string }> }

export interface HelpSection {
  id: string
  heading: string
  blocks: HelpBlock[]
}

export interface HelpPage {
  path: string
  title: string
  intro: string
  sections: HelpSection[]
}

/**
 * The sensor dictionary levels of the demo data (SPEC §3 dictionary entry: code, label, short, max,
 * low, med, warn, error; plus units). Mirrors app/seed/records/platform-3.ts; a unit test checks it.
 */
export const SENSOR_LEVELS: ReadonlyArray<{ code: string; label: string; short: string; units: string; max: number; low: number; med: number; warn: number; error: number }> = [
  { code: 'temp', label: 'Air Temperature', short: 'Temp', units: '°F', max: 110, low: 60, med: 80, warn: 85, error: 90 },
  { code: 'rh', label: 'Relative Humidity', short: 'RH', units: '%', max: 100, low: 40, med: 65, warn: 70, error: 80 },
  { code: 'co2', label: 'Carbon Dioxide', short: 'CO2', units: 'ppm', max: 5000, low: 400, med: 1200, warn: 1500, error: 2000 },
  { code: 'vpd', label: 'Vapor Pressure Deficit', short: 'VPD', units: 'kPa', max: 3, low: 0.8, med: 1.2, warn: 1.5, error: 1.8 },
  { code: 'ppfd', label: 'Photosynthetic Photon Flux Density', short: 'PPFD', units: 'µmol/m²/s', max: 2500, low: 200, med: 1000, warn: 1200, error: 1500 },
  { code: 'dli', label: 'Daily Light Integral', short: 'DLI', units: 'mol/m²/d', max: 80, low: 15, med: 45, warn: 55, error: 65 },
  { code: 'leaf_temp', label: 'Leaf Temperature', short: 'Leaf', units: '°F', max: 110, low: 65, med: 80, warn: 85, error: 90 },
  { code: 'dew_point', label: 'Dew Point', short: 'Dew', units: '°F', max: 90, low: 40, med: 55, warn: 62, error: 68 },
  { code: 'soil_moisture', label: 'Soil Moisture (VWC)', short: 'VWC', units: '%', max: 100, low: 20, med: 45, warn: 60, error: 75 },
  { code: 'soil_temp', label: 'Root Zone Temperature', short: 'Root', units: '°F', max: 100, low: 60, med: 72, warn: 78, error: 85 },
  { code: 'ec', label: 'Electrical Conductivity', short: 'EC', units: 'mS/cm', max: 6, low: 1, med: 2.2, warn: 2.8, error: 3.5 },
  { code: 'ph', label: 'pH', short: 'pH', units: '', max: 14, low: 5.5, med: 6.5, warn: 7, error: 7.5 },
  { code: 'water_temp', label: 'Reservoir Temperature', short: 'Water', units: '°F', max: 100, low: 60, med: 70, warn: 75, error: 80 },
  { code: 'weight', label: 'Scale Weight', short: 'Wt', units: 'lb', max: 500, low: 1, med: 200, warn: 400, error: 450 },
  { code: 'battery', label: 'Battery Voltage', short: 'Batt', units: 'V', max: 4.3, low: 3.4, med: 4.21, warn: 4.25, error: 4.3 },
]

/** What each sensor kind measures and why it matters (no numbers: those come from the dictionary). */
const SENSOR_MEANING: Record<string, [string, string]> = {
  temp: ['The air temperature in the room.', 'Too hot or too cold slows growth and stresses the plants.'],
  rh: ['How much water is in the air, as a percent of the most the air can hold.', 'High humidity invites mold and mildew. Low humidity dries the plants out.'],
  co2: ['Carbon dioxide in the air, in parts per million (ppm).', 'Plants use CO2 to grow. Very high CO2 is also a risk for people in the room.'],
  vpd: ['How strongly the air pulls water out of the leaves. It comes from temperature and humidity together.', 'Too high and plants lose water fast. Too low and they move water and food slowly.'],
  ppfd: ['How much usable light reaches the plants each second.', 'Too little light slows growth. Too much can bleach or burn the tops.'],
  dli: ['The total usable light the plants got over the whole day.', 'Shows if the plants got enough light today, not just right now.'],
  leaf_temp: ['The temperature of the leaves themselves.', 'Used with humidity to work out VPD. Very hot leaves are a sign of heat or light stress.'],
  dew_point: ['The temperature at which water comes out of the air as drops.', 'When walls, pipes or plants are colder than the dew point, they get wet and mold can start.'],
  soil_moisture: ['How wet the growing medium is, as a percent of its volume.', 'Tells you when to water. Too wet for too long can rot the roots.'],
  soil_temp: ['The temperature of the growing medium around the roots.', 'Warm roots can rot. Cold roots take up less water.'],
  ec: ['How much fertilizer salt is in the water or the growing medium.', 'Too high can burn the roots. Too low means hungry plants.'],
  ph: ['How acid or alkaline the water or medium is.', 'Outside the right range, plants cannot take up some of their food.'],
  water_temp: ['The temperature of the water in the tank.', 'Warm water holds less oxygen and invites root disease.'],
  weight: ['The weight on a scale.', 'Here the colour shows how close the load is to what the scale can carry.'],
  battery: ['The battery voltage of a wireless device.', 'A flat battery stops the device from sending readings.'],
}

const num = (n: number) => String(n)
const withUnit = (n: number, units: string) => (units ? (units === '%' ? `${num(n)}%` : `${num(n)} ${units}`) : num(n))
const batt = SENSOR_LEVELS.find((s) => s.code === 'battery')!
const temp = SENSOR_LEVELS.find((s) => s.code === 'temp')!

// ------------------------------------------------------------------------------------------ Tutorials
const tutorials: HelpPage = {
  path: '/HelpTutorials',
  title: 'Tutorials',
  intro: 'Short lessons for your first days in Canopy. Each one walks you through a common job, step by step.',
  sections: [
    {
      id: 'sign-in',
      heading: 'Sign in',
      blocks: [
        { kind: 'p', text: 'Your administrator creates your account. You sign in with your work email and your password.' },
        {
          kind: 'steps',
          items: [
            'Open Canopy. The Welcome page shows the Login box.',
            'Type your email and your password. Press Show password if you want to check what you typed.',
            'Press Login, or press Enter.',
            'The first time you sign in, the License Agreement opens. Read it and press Agree. If you press Disagree, you are signed out and cannot use Canopy.',
            'If your company is new to Canopy, you are asked for METRC credentials next. See "METRC credentials" below.',
            'If you work at more than one facility, choose the facility you are working at today.',
            'The Welcome page now lists the screens you can open.',
          ],
        },
        { kind: 'note', text: 'The Login button stays grey until both the email and the password are filled in.' },
        { kind: 'link', href: '/Welcome', label: 'Welcome page', text: 'Sign in here, or see the list of your screens.' },
      ],
    },
    {
      id: 'metrc-credentials',
      heading: 'METRC credentials (new companies)',
      blocks: [
        {
          kind: 'p',
          text: "METRC is the state system that tracks every plant and package. Canopy needs your company's state, its state license and a METRC API key to work with it. Only companies that are still being set up see this step.",
        },
        {
          kind: 'steps',
          items: [
            'Choose your State from the list.',
            'Type your State License number exactly as it is printed on your license.',
            'Paste your METRC API Key. If your company does not use METRC, tick I do not use METRC instead.',
            'Press Submit. Submit stays grey until the state, the license and a key (or the tick) are filled in.',
            'You see "Please wait for authorization email". Press Continue. You get an email when your account is ready.',
          ],
        },
        {
          kind: 'note',
          text: 'If you see "There was an error in one or more of the credentials you previously provided", the state license or the API key was wrong. The red lines say which one. Correct it and press Submit again.',
        },
        { kind: 'p', text: 'The API key is made inside METRC by a METRC user of your company. If you are not sure which key to use, ask the person who manages your METRC account.' },
      ],
    },
    {
      id: 'sign-in-problems',
      heading: 'When sign-in fails',
      blocks: [
        {
          kind: 'table',
          head: ['Message', 'What it means', 'What to do'],
          rows: [
            [
              "Login failed, please try again. If you forgot your password please reset it by clicking 'Reset Password'.",
              'The email or the password was not accepted.',
              'Check for typing mistakes and Caps Lock, then try again. Still failing? Reset your password.',
            ],
            ['(Network is disconnected) at the end of the message', 'This tablet or computer has no network.', 'Check the Wi-Fi or the cable, then try again.'],
            ['Servers unreachable. Please try again later. If error persists please contact support', 'Canopy could not reach its server.', 'Wait a few minutes and try again. If it keeps happening, contact support.'],
            ['Password contains forbidden characters', 'The password has a character Canopy does not accept.', 'Passwords cannot contain quotes, ?, &, /, <, > or spaces.'],
            ['Your account type does not have web acess: please contact support', 'This account is not allowed to use the web console, for example an account for a device.', 'Sign in with your own account, or contact support.'],
            ['You have been logged out due to extended inactivity. Please login again.', 'Nobody used Canopy for one hour, so it signed you out.', 'Sign in again.'],
          ],
        },
        { kind: 'p', text: 'Forgot your password? Reset it:' },
        {
          kind: 'steps',
          items: [
            'In the Login box, press Reset Password.',
            'Type your email and press Reset.',
            'Check your email for the reset link. Look in the spam folder too.',
            'Open the link and choose a new password.',
          ],
        },
        { kind: 'note', text: 'The reset email only goes to people who have an account. No email after a while? Ask your administrator or contact support.' },
      ],
    },
    {
      id: 'kiosk',
      heading: 'Kiosk mode on a shared tablet',
      blocks: [
        { kind: 'p', text: 'Kiosk mode is for the shared tablet on the floor. It hides the top bar and the footer, so the screen has more room and bigger text and buttons.' },
        {
          kind: 'steps',
          items: [
            'Sign in and open the screen you need.',
            'Press Kiosk in the footer at the bottom of the screen.',
            'The bars disappear. Work as usual.',
            'To leave kiosk mode, press the Leave kiosk mode button in the bottom right corner.',
          ],
        },
        {
          kind: 'list',
          items: [
            'If someone presses the Back button in kiosk mode, Canopy asks "Leave Canopy?". Press Stay to keep working, or Leave to go back.',
            'After one hour without use, Canopy signs out by itself. The next person must sign in again.',
            'Sign out at the end of your shift: leave kiosk mode, press your name in the top right, then press Logout.',
          ],
        },
        { kind: 'note', text: 'Everything you save is recorded with your name and the time. Never work under someone else\'s login on the shared tablet, and keep your password to yourself.' },
      ],
    },
    {
      id: 'finding-screens',
      heading: 'Find your screens',
      blocks: [
        {
          kind: 'p',
          text: 'The Menu button in the top left opens the menu. It shows only the modules your account may use at this facility, grouped by module: Cultivation, Dashboards, Tasks and so on.',
        },
        { kind: 'steps', items: ['Press Menu.', 'Press a group name, for example Cultivation, to open it.', 'Press the screen you want, for example Plantings.'] },
        {
          kind: 'list',
          items: [
            'The Welcome page lists all your screens too.',
            'To work at another facility, press the facility name in the footer and choose another one. The name is a link only if you have more than one facility.',
            'A screen or a whole module is missing? Your administrator decides which modules you can use. Ask them to add it.',
          ],
        },
        { kind: 'link', href: '/HelpProducts', label: 'Products', text: 'See what each module is for.' },
      ],
    },
    {
      id: 'tables',
      heading: 'Work in a table',
      blocks: [
        { kind: 'p', text: 'Most screens are tables, with one row per record. The toolbar at the top and the footer at the bottom work the same way on every table.' },
        {
          kind: 'table',
          head: ['Control', 'What it does'],
          rows: [
            ['Filter icon in a column header', 'Search in that column: press the icon, then type. The table updates about one second after you stop typing.'],
            ['Date range', 'Show only rows from certain dates. Pick two dates, or a shortcut: Today, Yesterday, This week, Last week, Last 7 days, Last 30 days, This month, Last month, This year, Last year.'],
            ['Showing Active Records / Showing All Records', 'Switch between active rows only and all rows, including inactive ones.'],
            ['Hide icon in a column header', 'Hide a column you do not need.'],
            ['Show Hidden Columns', 'Bring hidden columns back.'],
            ['Sort arrow in a column header', 'Sort by that column. Press again to reverse the order.'],
            ['10, 12, 14', 'Text size. 14 is the easiest to read on the floor.'],
            ['Refresh', 'Reload the table. It lights up when someone else has changed the table.'],
            ['Rows per page: 10, 20, 30, 40', 'How many rows show on one page. Use the page buttons to move between pages.'],
            ['Pencil', 'Edit that row.'],
            ['Bin', 'Delete that row. Canopy first asks "Are you sure you want to delete this item?".'],
            ['Add Item', 'Add a new row.'],
          ],
        },
        { kind: 'note', text: 'Add Item, the pencil and the bin only show on tables you may change. Read-only tables, like the METRC reference tables, have none of them.' },
        { kind: 'p', text: 'In some tables a coloured dot starts each row: green means yes or active, red means no.' },
      ],
    },
    {
      id: 'add-planting',
      heading: 'Add a planting',
      blocks: [
        { kind: 'p', text: 'A planting is a batch of seeds or clones started together. Record it on the day you plant.' },
        {
          kind: 'steps',
          items: [
            'Press Menu, then Cultivation, then Plantings.',
            'Press Add Item. The edit window opens.',
            'Batch: type the name of the batch.',
            'Strain: choose the strain from the list.',
            'Room: choose the room the plants are in.',
            'Tag Number: press the RFID button and scan the batch tag, or type the tag number.',
            'Type: choose Seed or Clone.',
            'Source Pkg: the tag of the package the seeds or clones came from. You may leave it empty only when Type is Seed.',
            'Original Count: how many plants you started, a whole number from 1 to 100.',
            'Planted: the date you planted. Fill in Current Count, Growth Phase and Notes if you know them.',
            'Press Save, or press Enter in a text field. Press Cancel to close without saving.',
          ],
        },
        {
          kind: 'note',
          text: 'If something is missing, a red Error window lists it, for example "The following fields can not be empty: Strain, Room". If the count is wrong it says "Original Count must be between 1 and 100". Nothing is saved until you fix the field and press Save again.',
        },
        { kind: 'link', href: '/CulPlantings', label: 'Plantings', text: 'Go straight to the Plantings table.' },
      ],
    },
    {
      id: 'scale',
      heading: 'Read a weight from the scale',
      blocks: [
        {
          kind: 'p',
          text: 'A weight field that is linked to a scale has a Remote Scale button. For example Wet Weight and Dry Weight on Harvests, Dead Weight on Plants, Weight on Waste and Bud Weight on Trim. Your administrator decides which fields are linked, and to which scale.',
        },
        {
          kind: 'steps',
          items: [
            'Open the record with the pencil, or press Add Item.',
            'Put the item on the scale. Wait until the number on the scale stops moving.',
            'Press Remote Scale next to the weight field.',
            'When the reading arrives, the field fills in with the weight and its unit (lb, oz or g) and the scale plays its success sound.',
            'Check the number, then press Save.',
          ],
        },
        { kind: 'note', text: 'If no reading arrives within 10 seconds, Canopy stops waiting and the scale plays its failure sound. Some scales are set up to wait 30 seconds for you instead.' },
        { kind: 'p', text: 'If the scale does not answer, check:' },
        {
          kind: 'list',
          items: [
            'The scale is switched on and shows a steady weight.',
            'You are using the scale that is linked to this field. Ask your lead if you are not sure which one it is.',
            'The footer says Connected. If it says Disconnected, the tablet has lost the server.',
            'Press Remote Scale again. If it keeps failing, tell your lead. Type the weight by hand only if your SOP allows it.',
          ],
        },
      ],
    },
    {
      id: 'password',
      heading: 'Change your password',
      blocks: [
        {
          kind: 'steps',
          items: ['Press your name in the top right to open the user menu.', 'Press Change Password.', 'Type your current password.', 'Type the new password twice.', 'Press Save.'],
        },
        {
          kind: 'list',
          items: [
            'At least 8 characters.',
            'At least one lower-case letter, one upper-case letter, one number and one special character.',
            'No quotes, ?, &, /, <, > or spaces.',
          ],
        },
        { kind: 'link', href: '/ChangePassword', label: 'Change Password', text: 'Open the Change Password page.' },
      ],
    },
    {
      id: 'theme-language',
      heading: 'Light or dark theme, and language',
      blocks: [
        {
          kind: 'list',
          items: [
            'Canopy starts in the dark theme. Press Light theme in the top bar to switch. Press Dark theme to switch back.',
            'To read Canopy in Spanish, press your name in the top right, then Español. Press English to switch back.',
            'Canopy remembers your theme and language for your account.',
          ],
        },
        { kind: 'note', text: 'The light theme can be easier to read in bright light in the greenhouse.' },
      ],
    },
    {
      id: 'more-help',
      heading: 'Getting more help',
      blocks: [
        {
          kind: 'list',
          items: [
            'Press Support in the top bar to reach the support team.',
            'The footer shows whether Canopy is connected to the server: Connected, Connecting or Disconnected.',
            'Short messages in the top right tell you about the connection, for example "Server connection disrupted" and "Server connection established".',
          ],
        },
        { kind: 'link', href: '/SupportTicket', label: 'Support', text: 'Open the support page.' },
      ],
    },
  ],
}

// ------------------------------------------------------------------------------------------ Videos
const videos: HelpPage = {
  path: '/HelpVideos',
  title: 'Videos',
  intro:
    'Canopy does not come with video files, and the tablet on the floor may have no internet. Your organisation can record its own walk-through videos and share them through Documents. Each key task below also has a text version, so you can learn it with or without a video.',
  sections: [
    {
      id: 'where-videos',
      heading: 'Where to find your videos',
      blocks: [
        { kind: 'p', text: 'Walk-through videos are made by your own organisation, for your rooms, your scales and your SOPs. They are listed in Documents.' },
        { kind: 'link', href: '/DocList', label: 'Documents', text: 'Open Documents and look for training material.' },
        { kind: 'note', text: 'No videos in Documents yet? Use the text versions on this page, and ask your lead which videos are planned.' },
      ],
    },
    {
      id: 'recording-videos',
      heading: 'For administrators: which videos to record',
      blocks: [
        { kind: 'p', text: 'Short videos, one task each, filmed on your own floor with your own devices, are the easiest to follow on a tablet. Good first topics:' },
        {
          kind: 'list',
          items: [
            'Signing in on the shared tablet, and signing out at the end of a shift.',
            'Adding a planting.',
            'Weighing a harvest with the Remote Scale button.',
            'Recording waste: method, mix material and weight.',
            'Reading the Sensors dashboard, and what to do on red or orange.',
            'Finding a record in a table: column search, date range, active or all records.',
          ],
        },
        {
          kind: 'steps',
          items: [
            'Store the video where your organisation keeps training files. Files can be uploaded in File Upload.',
            'Add an entry in Documents with the type Training Record and a clear title, for example "Video: add a planting".',
            'Tell your team the title so they can find it.',
          ],
        },
        { kind: 'link', href: '/DocFileUpload', label: 'File Upload', text: 'Upload a training file.' },
      ],
    },
    {
      id: 'text-sign-in',
      heading: 'Text version: sign in on the shared tablet',
      blocks: [
        {
          kind: 'steps',
          items: [
            'On the Welcome page, type your email and password and press Login.',
            'Choose today\'s facility if Canopy asks.',
            'Press Kiosk in the footer to get big buttons and more room.',
            'At the end of your shift, press Leave kiosk mode, then your name, then Logout.',
          ],
        },
        { kind: 'link', href: '/HelpTutorials#kiosk', label: 'Kiosk mode', text: 'The full lesson on kiosk mode.' },
      ],
    },
    {
      id: 'text-planting',
      heading: 'Text version: add a planting',
      blocks: [
        {
          kind: 'steps',
          items: [
            'Open Cultivation, then Plantings, and press Add Item.',
            'Fill in Batch, Strain, Room and Type, and scan the Tag Number with the RFID button.',
            'Fill in Source Pkg (not needed for seeds) and Original Count (1 to 100).',
            'Press Save. If a red Error window opens, fix the field it names and save again.',
          ],
        },
        { kind: 'link', href: '/CulPlantings', label: 'Plantings', text: 'Open the Plantings table.' },
      ],
    },
    {
      id: 'text-weigh-harvest',
      heading: 'Text version: weigh a harvest',
      blocks: [
        {
          kind: 'steps',
          items: [
            'Open Cultivation, then Harvests, and press the pencil on the harvest.',
            'Put the harvest on the scale and wait until the number stops moving.',
            'Press Remote Scale next to Wet Weight. The weight fills in within 10 seconds.',
            'Check the weight and press Save. No weight and a failure sound? See the scale lesson.',
          ],
        },
        { kind: 'link', href: '/CulHarvest', label: 'Harvests', text: 'Open the Harvests table.' },
        { kind: 'link', href: '/HelpTutorials#scale', label: 'Read a weight from the scale', text: 'What to check when the scale does not answer.' },
      ],
    },
    {
      id: 'text-waste',
      heading: 'Text version: record waste',
      blocks: [
        {
          kind: 'steps',
          items: [
            'Open Cultivation, then Waste, and press Add Item.',
            'Fill in the Date, the Waste Type and the Reason.',
            'Choose the Waste Method and the Mix Material.',
            'Weigh the waste with Remote Scale next to Weight, then press Save.',
          ],
        },
        { kind: 'note', text: 'When you mark a plant as dead on the Plants table, Waste Method, Mix Material and Dead Weight must all be filled in, or Canopy will not save it.' },
        { kind: 'link', href: '/culWaste', label: 'Waste', text: 'Open the Waste table.' },
      ],
    },
    {
      id: 'text-sensors',
      heading: 'Text version: check the sensors',
      blocks: [
        {
          kind: 'steps',
          items: [
            'Open Dashboards, then Sensors.',
            'Look for red or orange gauges first.',
            'Go to that room and check it. Fix what you safely can and tell your lead.',
            'Blue means low: a cold room, dry air or a flat battery. Check those too.',
          ],
        },
        { kind: 'link', href: '/HelpSensors', label: 'Sensors help', text: 'The full guide to the gauges and their colours.' },
      ],
    },
    {
      id: 'text-table',
      heading: 'Text version: find a record in a table',
      blocks: [
        {
          kind: 'steps',
          items: [
            'Open the table, for example Cultivation, then Plants.',
            'Press the filter icon in the column you know, for example Plant Tag, and type part of the value.',
            'To narrow it down by date, choose a date range such as Last 7 days.',
            'Still not there? Switch Showing Active Records to Showing All Records to include inactive rows.',
          ],
        },
        { kind: 'link', href: '/culPlants', label: 'Plants', text: 'Open the Plants table.' },
      ],
    },
  ],
}

// ------------------------------------------------------------------------------------------ External
const external: HelpPage = {
  path: '/HelpExternal',
  title: 'External Resources',
  intro:
    'Official websites for the rules you work under. They open outside Canopy and need an internet connection. The address is shown next to each link, so you can also type it on another device.',
  sections: [
    {
      id: 'metrc',
      heading: 'METRC (state track-and-trace)',
      blocks: [
        {
          kind: 'p',
          text: 'METRC is the system many states use to track every cannabis plant and package, from seed to sale. Plant batches, plants and packages each carry a METRC tag. Canopy works with METRC through your company\'s API key.',
        },
        { kind: 'link', href: 'https://www.metrc.com', label: 'METRC', text: 'Sign in to METRC, and find training and support for licensees.' },
        {
          kind: 'link',
          href: 'https://api-ca.metrc.com/Documentation',
          label: 'METRC API documentation (California)',
          text: 'For administrators and IT. Other states use the same address with their own two-letter code, for example api-co for Colorado.',
        },
        {
          kind: 'list',
          items: [
            'METRC tags are long (24 characters). Scan them with the RFID button instead of typing when you can.',
            'METRC API keys can stop working, for example when they expire. If Canopy says "METRC API Key was incorrect.", a new key must be made in METRC and entered again.',
            'Some jobs may have to be finished on the METRC website itself. Your compliance officer knows which ones.',
          ],
        },
      ],
    },
    {
      id: 'california',
      heading: 'California',
      blocks: [
        { kind: 'p', text: 'California uses METRC for its state track-and-trace system.' },
        { kind: 'link', href: 'https://cannabis.ca.gov', label: 'Department of Cannabis Control (DCC)', text: "California's cannabis regulator: licenses, rules, track-and-trace requirements and news for licensees." },
        { kind: 'link', href: 'https://www.cdpr.ca.gov', label: 'Department of Pesticide Regulation (DPR)', text: 'Which pesticides may be used, and how, in California.' },
        { kind: 'link', href: 'https://www.dir.ca.gov/dosh', label: 'Cal/OSHA', text: 'Workplace safety rules for employers and workers in California.' },
      ],
    },
    {
      id: 'colorado',
      heading: 'Colorado',
      blocks: [
        { kind: 'p', text: 'Colorado also uses METRC for its state track-and-trace system.' },
        { kind: 'link', href: 'https://med.colorado.gov', label: 'Marijuana Enforcement Division (MED)', text: "Colorado's regulator: rules, industry bulletins, licensing and METRC requirements." },
        { kind: 'link', href: 'https://ag.colorado.gov', label: 'Colorado Department of Agriculture', text: 'Pesticide rules, including which pesticides may be used on cannabis.' },
      ],
    },
    {
      id: 'safety',
      heading: 'Worker safety',
      blocks: [
        { kind: 'link', href: 'https://www.osha.gov/agricultural-operations', label: 'OSHA: Agricultural Operations', text: 'Federal safety guidance for farm work: chemicals, heat, noise, lifting and more.' },
        { kind: 'note', text: 'Your own site\'s SOPs and safety rules come first. Ask your lead where they are kept. Many are in Policies and Documents.' },
        { kind: 'link', href: '/PolDocs', label: 'Policies', text: "Your organisation's policies and SOPs." },
      ],
    },
    {
      id: 'other-states',
      heading: 'Other states',
      blocks: [
        {
          kind: 'p',
          text: `Canopy accepts METRC credentials for these states: ${CREDENTIAL_STATES.join(', ')}. Find your state's cannabis regulator on your state government's website, and ask your compliance officer which rules apply to your license.`,
        },
        { kind: 'note', text: "Rules change. Check the regulator's website or ask your compliance officer before you change how you work." },
      ],
    },
  ],
}

// ------------------------------------------------------------------------------------------ Products
const products: HelpPage = {
  path: '/HelpProducts',
  title: 'Products',
  intro:
    'A tour of the Canopy modules: what each one is for and its main screens. You see only the modules your account may use at this facility. If you need another one, ask your administrator.',
  sections: [
    {
      id: 'cultivation',
      heading: 'Cultivation',
      blocks: [
        { kind: 'p', text: 'Everything from mother plant to finished package, one table per step.' },
        {
          kind: 'table',
          head: ['Screen', 'Address', 'What it is for'],
          rows: [
            ['Products', '/culProducts', 'The products your facility makes.'],
            ['Inventory', '/culInventory', 'Packages on hand, with their tags, weights and lab status.'],
            ['Bins', '/culBins', 'Totes, shelves, racks and other places where product is stored.'],
            ['Mothers', '/CulMoms', 'Mother plants kept for cuttings.'],
            ['Clones', '/CulClones', 'Cuttings, from cut to rooted and transplanted.'],
            ['Plantings', '/CulPlantings', 'Batches of seeds or clones planted together.'],
            ['Plants', '/culPlants', 'Each tagged plant, its room and growth phase. Dead plants are marked here.'],
            ['Harvests', '/CulHarvest', 'Harvest batches, with wet, dry and waste weights.'],
            ['Processing', '/CulProcess', 'Bucking, trimming, extraction and packaging runs.'],
            ['Trim', '/culTrim', 'Trim work per trimmer: bud and trim weights, hours and labor cost.'],
            ['Reports', '/culReports', 'Compliance, yield, waste and other reports, and whether they went to the state.'],
            ['Waste', '/culWaste', 'Destroyed plant material: method, mix material, weight and witness.'],
          ],
        },
        { kind: 'link', href: '/CulPlantings', label: 'Plantings', text: 'Start here for new batches.' },
        { kind: 'link', href: '/HelpTutorials#add-planting', label: 'Add a planting', text: 'Step by step.' },
      ],
    },
    {
      id: 'dashboards',
      heading: 'Dashboards',
      blocks: [
        { kind: 'p', text: 'Overviews of your facility at a glance, built from the same records as the tables.' },
        {
          kind: 'table',
          head: ['Screen', 'Address', 'What it is for'],
          rows: [
            ['Plants Dashboard', '/DshPlants', 'Your plants at a glance.'],
            ['Harvests Dashboard', '/DshHarvests', 'Your harvests at a glance.'],
            ['Compliance Dashboard', '/DshCompliance', 'Waste and other compliance records at a glance.'],
            ['Cultivation Dashboard', '/DshCultivation', 'Your plantings at a glance.'],
            ['Sensors', '/DshSensors', 'Live gauges from your sensors. Needs the Sensors, Automation or Sidekick module.'],
          ],
        },
        { kind: 'link', href: '/HelpSensors', label: 'Sensors help', text: 'How to read the gauges.' },
      ],
    },
    {
      id: 'tasks',
      heading: 'Tasks',
      blocks: [
        {
          kind: 'p',
          text: 'The Calendar holds the jobs of your team: feeding, IPM, transplanting, defoliation, harvest, cleaning, maintenance, audits and more. Each task has a start and end, a person, a room, a priority and a status.',
        },
        { kind: 'link', href: '/SchCalendar', label: 'Calendar', text: 'See what is planned for today.' },
      ],
    },
    {
      id: 'distribution',
      heading: 'Distribution',
      blocks: [
        {
          kind: 'table',
          head: ['Screen', 'Address', 'What it is for'],
          rows: [
            ['Products', '/DIsProducts', 'The products you sell, with brand, size and prices.'],
            ['Inventory', '/DIsInventory', 'Packages received and in stock, with tags, quantities and lab status.'],
            ['Create Order', '/DisCart', 'Start a new order for a client.'],
            ['Orders', '/DisSales', 'All orders and where each one is: draft, approved, packed, in transit, delivered.'],
            ['Reports', '/DisReports', 'Sales and other distribution reports.'],
          ],
        },
        { kind: 'link', href: '/DisCart', label: 'Create Order', text: 'Start an order.' },
      ],
    },
    {
      id: 'testing',
      heading: 'Testing',
      blocks: [
        { kind: 'p', text: 'Inventory in Testing lists the lab samples pulled from your packages: which package, which lab, and the result.' },
        { kind: 'link', href: '/TesInventory', label: 'Testing inventory', text: 'Follow your lab samples.' },
      ],
    },
    {
      id: 'finance',
      heading: 'Finance',
      blocks: [
        {
          kind: 'table',
          head: ['Screen', 'Address', 'What it is for'],
          rows: [
            ['Tax Inventory', '/TaxInventory', 'Cannabis taxes per package. Tax State shows Pending, Due or Paid.'],
            ['Payments', '/FinPayments', 'Payments received and made.'],
            ['Receivables', '/TaxReceivables', 'Invoices clients still have to pay, with due dates and taxes.'],
            ['Reports', '/FinReports', 'Finance reports.'],
          ],
        },
        { kind: 'p', text: 'Money is shown in US dollars with two decimals.' },
      ],
    },
    {
      id: 'metrc',
      heading: 'Metrc (state tracking)',
      blocks: [
        { kind: 'p', text: "Your facility's data in the state tracking system, METRC. Most of these tables are read-only: they show what METRC holds." },
        {
          kind: 'list',
          items: [
            'Reference lists from the state: units of measure, item categories, package types, growth phases, waste methods and reasons, transfer types and more.',
            'Your data in METRC: lab tests, employees, facilities, harvests, patients, plant batches, plants, rooms, strains and the tags on hand (unused plant and package tags).',
            'Tables you can change: Items, Packages and Waste Mix.',
            'Workflow Preferences: how your organisation works with METRC.',
          ],
        },
        { kind: 'link', href: '/MetrcPackages', label: 'Packages', text: 'Your METRC packages.' },
        { kind: 'link', href: '/MetrcPlantBatches', label: 'Plant Batches', text: 'Your plant batches as METRC has them.' },
        { kind: 'link', href: '/MetrcUnits', label: 'Units of Measure', text: 'The units METRC accepts.' },
      ],
    },
    {
      id: 'crm',
      heading: 'CRM',
      blocks: [
        { kind: 'p', text: 'For sales and marketing staff: finding and keeping clients.' },
        {
          kind: 'list',
          items: [
            'Prospects and Sales Pipeline: businesses you want to sell to, and how far each deal has come.',
            'Campaigns, Create Campaign, Templates and Links: email campaigns and the links in them.',
            'Partners, Download Requests, Unsubscribed: partners, people who asked for material, and people who opted out.',
            'Workflow, Messages and To Do: follow-ups, messages and your own to-do list.',
            'Release Notes: what changed in Canopy.',
          ],
        },
        { kind: 'link', href: '/CrmSalesPipeline', label: 'Sales Pipeline', text: 'See open deals.' },
      ],
    },
    {
      id: 'other',
      heading: 'Other: visitors, documents, messages and teams',
      blocks: [
        {
          kind: 'table',
          head: ['Screen', 'Address', 'What it is for'],
          rows: [
            ['Visitor Log', '/VisLog', 'Who visited, from which company, why, who hosted them and their badge number.'],
            ['Policies', '/PolDocs', 'Your SOPs and policies, with version and owner.'],
            ['File Upload', '/DocFileUpload', 'Upload files such as COAs, manifests, licenses and photos.'],
            ['HTML Editor', '/DocHTMLEditor', 'Write pages that Canopy can show, such as notices.'],
            ['Documents', '/DocList', 'The list of your documents, their type, owner and expiry date.'],
            ['Teams', '/TeamGroups', 'Your teams, their lead and shift.'],
            ['Messages', '/MsgMessages', 'Messages between staff.'],
          ],
        },
        { kind: 'link', href: '/VisLog', label: 'Visitor Log', text: 'Sign a visitor in.' },
      ],
    },
    {
      id: 'operations',
      heading: 'Operations',
      blocks: [
        {
          kind: 'table',
          head: ['Screen', 'Address', 'What it is for'],
          rows: [
            ['Engineering', '/OpsEngineering', 'Requests for building and equipment work.'],
            ['Enhancements', '/OpsEnhancements', 'Ideas for improving Canopy, with votes.'],
            ['Marketing', '/OpsMarketing', 'Marketing requests and their budget.'],
            ['Sales', '/OpsSales', 'Requests from the sales team.'],
          ],
        },
      ],
    },
    {
      id: 'settings',
      heading: 'Settings',
      blocks: [
        { kind: 'p', text: 'The lists the other screens pick from. Usually kept by an administrator.' },
        {
          kind: 'table',
          head: ['Screen', 'Address', 'What it is for'],
          rows: [
            ['Rooms', '/SetRooms', 'Your rooms. Listed under Facilities in the menu.'],
            ['Strains', '/SetStrain', 'Your strains. Listed under Facilities in the menu.'],
            ['Contacts', '/SetContactsPeople', 'People at your client businesses.'],
            ['Clients', '/SetClients', 'The businesses you buy from and sell to.'],
            ['Relations', '/SetRelation', 'How each client relates to you, and who manages the account.'],
            ['Transport', '/SetTransport', 'Your vehicles.'],
            ['Tax Rates', '/SetTax', 'Tax rates used in Finance.'],
            ['My Licenses', '/SetMylic', "Your company's licenses."],
            ['Groups', '/SetGroups', 'Groups of staff.'],
            ['Product Types', '/SetProdtype', 'The kinds of product you handle.'],
            ['Internal Customers', '/SetIntCustomer', 'Your own sites and departments that receive product.'],
            ['Printers', '/SetPrinters', 'Label printers and their templates.'],
            ['Roles', '/SetRole', 'Staff roles.'],
          ],
        },
      ],
    },
    {
      id: 'sensors',
      heading: 'Sensors and devices',
      blocks: [
        {
          kind: 'p',
          text: 'Canopy works with room sensors, scales, RFID readers and label printers. Sensors feed the Sensors dashboard. Scales fill weight fields through the Remote Scale button. RFID readers fill tag fields through the RFID button.',
        },
        { kind: 'link', href: '/DshSensors', label: 'Sensors dashboard', text: 'See your rooms right now.' },
        { kind: 'link', href: '/HelpSensors', label: 'Sensors help', text: 'Colours, levels and what to do.' },
      ],
    },
    {
      id: 'workflows-help',
      heading: 'Workflows and Help',
      blocks: [
        { kind: 'p', text: 'If your organisation has set up workflows for a module, a Workflows item is shown first in that module\'s menu group.' },
        { kind: 'p', text: 'Help, where you are now, has Tutorials, Videos, External Resources, this Products tour and the Sensors guide.' },
        { kind: 'link', href: '/HelpTutorials', label: 'Tutorials', text: 'Start with the lessons for new users.' },
      ],
    },
  ],
}

// ------------------------------------------------------------------------------------------ Sensors
const levelRow = (s: (typeof SENSOR_LEVELS)[number]) => [
  `${s.label} (${s.short})`,
  s.units || 'none',
  `${num(s.low)} or less`,
  `over ${num(s.low)} to ${num(s.med)}`,
  `over ${num(s.med)} to ${num(s.warn)}`,
  `over ${num(s.warn)} to ${num(s.error)}`,
  `over ${num(s.error)}`,
  num(s.max),
]

const sensors: HelpPage = {
  path: '/HelpSensors',
  title: 'Sensors',
  intro: 'How to read the Sensors dashboard, what the gauge colours mean, and what to do when a reading is out of range or a device stops reporting.',
  sections: [
    {
      id: 'dashboard',
      heading: 'The Sensors dashboard',
      blocks: [
        { kind: 'p', text: "Press Menu, then Dashboards, then Sensors. The dashboard shows the latest readings of your facility's sensors as gauges." },
        {
          kind: 'list',
          items: [
            'Each gauge is one reading from one device, for example the air temperature in a flower room.',
            'The number is the latest reading the device sent.',
            `The gauge fills by percent of its maximum: reading divided by max. For example ${withUnit(temp.max / 2, temp.units)} on a ${withUnit(temp.max, temp.units)} gauge fills it 50%.`,
            'The colour tells you where the reading is compared with the levels set for that kind of sensor.',
          ],
        },
        { kind: 'link', href: '/DshSensors', label: 'Sensors dashboard', text: 'Open the Sensors dashboard.' },
        { kind: 'note', text: 'The dashboard needs the Sensors, Automation or Sidekick module. If it is not in your menu, ask your administrator.' },
      ],
    },
    {
      id: 'colours',
      heading: 'Gauge colours',
      blocks: [
        { kind: 'p', text: 'Every kind of sensor has four levels: low, med, warn and error. Canopy checks them from the top down and uses the first colour that fits:' },
        {
          kind: 'colour',
          rows: [
            { colour: 'red', when: 'Above the error level', meaning: 'Out of range. Act now.' },
            { colour: 'orange', when: 'Above the warn level, up to the error level', meaning: 'Close to the limit. Check the room soon.' },
            { colour: 'yellow', when: 'Above the med level, up to the warn level', meaning: 'Higher than usual. Keep an eye on it.' },
            { colour: 'green', when: 'Above the low level, up to the med level', meaning: 'The normal range.' },
            { colour: 'blue', when: 'At or below the low level', meaning: 'Low. For most sensors this is out of range too, for example too cold or too dry.' },
          ],
        },
        { kind: 'note', text: 'Blue does not mean good. It means the reading is low: a cold room, dry air, low CO2 or a flat battery all show blue.' },
      ],
    },
    {
      id: 'levels',
      heading: 'Levels for each kind of sensor',
      blocks: [
        {
          kind: 'p',
          text: 'These are the levels in the sensor dictionary of the demo facilities. The platform administrator keeps the dictionary, so your levels may be different. The green column is the normal range.',
        },
        { kind: 'table', head: ['Sensor', 'Unit', 'Blue', 'Green', 'Yellow', 'Orange', 'Red', 'Gauge max'], rows: SENSOR_LEVELS.map(levelRow) },
        {
          kind: 'note',
          text: `Battery Voltage and Scale Weight read differently. A high battery voltage just means a full battery; blue (${withUnit(batt.low, batt.units)} or less) means charge or change the battery. On a scale, orange and red mean the load is close to what the scale can carry.`,
        },
      ],
    },
    {
      id: 'what-they-measure',
      heading: 'What each sensor measures',
      blocks: [
        {
          kind: 'p',
          text: 'Climate sensors measure the air: temperature, humidity and, on some models, CO2 and light. Substrate sensors sit in the growing medium and measure its moisture, temperature and EC.',
        },
        {
          kind: 'table',
          head: ['Sensor', 'What it measures', 'Why it matters'],
          rows: SENSOR_LEVELS.map((s) => [`${s.label} (${s.short})`, ...(SENSOR_MEANING[s.code] ?? ['', ''])]),
        },
      ],
    },
    {
      id: 'red-orange',
      heading: 'What to do on red or orange',
      blocks: [
        {
          kind: 'steps',
          items: [
            'Read the gauge: which room, which sensor, and how far over the level it is.',
            'Go to the room and look: doors, fans, heaters, dehumidifiers, CO2 supply, irrigation. A wet, dirty or moved probe can also give a wrong reading.',
            'Fix what you safely can, the way your SOP says.',
            'Tell your grow lead. On red, tell them right away.',
            'Watch the next readings. Write down what you did, for example as a task in the Calendar.',
          ],
        },
        { kind: 'note', text: "Safety first: if CO2 is red, or you feel dizzy or short of breath, leave the room and follow your site's CO2 safety procedure." },
        { kind: 'p', text: 'Blue on a climate, water or pH sensor means the reading is low. Check it the same way.' },
        { kind: 'link', href: '/SchCalendar', label: 'Calendar', text: 'Record what you did as a task.' },
      ],
    },
    {
      id: 'offline',
      heading: 'When a device is offline',
      blocks: [
        { kind: 'p', text: 'A device that stops reporting cannot update its gauges. What you see is the last reading it sent, which may be old.' },
        {
          kind: 'list',
          items: [
            'Every device has an Online status: a green dot when it is online, red when it is not.',
            'Last Seen shows when it last reported. Minutes or hours ago means trouble.',
            'Wireless devices also show their Battery %.',
          ],
        },
        {
          kind: 'steps',
          items: [
            'Check the device has power: plugged in, or a charged battery.',
            'Check it is in its place, dry and not damaged.',
            'Check the network. The tablet footer should say Connected. If several devices are offline at once, the network may be down.',
            'Tell your lead or maintenance. Until it is back, take readings with a handheld meter and write them down, as your SOP says.',
          ],
        },
        { kind: 'note', text: 'Scales, RFID readers and printers are devices too. If Remote Scale keeps failing, the scale may be offline.' },
      ],
    },
    {
      id: 'device-types',
      heading: 'Kinds of device',
      blocks: [
        {
          kind: 'table',
          head: ['Type', 'What it does'],
          rows: [
            ['Sensor', 'Measures the air, the water or the growing medium and sends readings to the dashboard.'],
            ['Scale', 'Sends a weight to the field where you pressed Remote Scale. It plays a sound when the reading worked or failed.'],
            ['RFID reader', 'Reads a tag and fills it into the field where you pressed the RFID button.'],
            ['Printer', 'Prints labels. After you print, the print button is off for 20 seconds so the label is not printed twice.'],
          ],
        },
        { kind: 'link', href: '/HelpTutorials#scale', label: 'Read a weight from the scale', text: 'The scale lesson, step by step.' },
      ],
    },
  ],
}

export const HELP_PAGES: Record<string, HelpPage> = Object.fromEntries([tutorials, videos, external, products, sensors].map((p) => [p.path, p]))

/** The help page of a route (case-insensitive, trailing slash ignored, like findRoute). */
export function helpPage(path: string): HelpPage | undefined {
  const p = path.replace(/\/+$/, '').toLowerCase()
  return Object.values(HELP_PAGES).find((h) => h.path.toLowerCase() === p)
}

/** Every text the help pages pass through t(): titles, intros, headings and blocks (the renderer's own labels are HELP_UI in components/help-view). */
export function helpPhraseKeys(): string[] {
  const keys = new Set<string>()
  for (const page of Object.values(HELP_PAGES)) {
    keys.add(page.title).add(page.intro)
    for (const s of page.sections) {
      keys.add(s.heading)
      for (const b of s.blocks) for (const text of blockTexts(b)) keys.add(text)
    }
  }
  return [...keys].filter((k) => k !== '')
}

/** The readable texts of a block (not hrefs or colour codes). */
export function blockTexts(b: HelpBlock): string[] {
  switch (b.kind) {
    case 'p':
    case 'note':
      return [b.text]
    case 'steps':
    case 'list':
      return b.items
    case 'table':
      return [...b.head, ...b.rows.flat()]
    case 'link':
      return [b.label, b.text]
    case 'colour':
      return b.rows.flatMap((r) => [r.when, r.meaning])
  }
}
