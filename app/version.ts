/** Application version shown in the title (SPEC §1, §9). */
export const APP_VERSION = '4.1.0'
export const APP_NAME = 'Canopy'
